import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export type AuthTab = 'login' | 'register';

type AuthDialogState = {
  open: boolean;
  tab: AuthTab;
  /** Where to go after signing in (a signed-in page the user tried to open). */
  redirectTo: string | null;
};

type AuthDialogContextValue = AuthDialogState & {
  openAuthDialog: (tab?: AuthTab, options?: { redirectTo?: string }) => void;
  closeAuthDialog: () => void;
  setTab: (tab: AuthTab) => void;
};

const AuthDialogContext = createContext<AuthDialogContextValue | null>(null);

/** Lets any screen open the one login/register dialog (rendered by the app layout). */
export function AuthDialogProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthDialogState>({ open: false, tab: 'login', redirectTo: null });

  const openAuthDialog = useCallback((tab: AuthTab = 'login', options: { redirectTo?: string } = {}) => {
    setState({ open: true, tab, redirectTo: options.redirectTo ?? null });
  }, []);
  const closeAuthDialog = useCallback(() => setState((current) => ({ ...current, open: false })), []);
  const setTab = useCallback((tab: AuthTab) => setState((current) => ({ ...current, tab })), []);

  const value = useMemo(
    () => ({ ...state, openAuthDialog, closeAuthDialog, setTab }),
    [state, openAuthDialog, closeAuthDialog, setTab],
  );
  return <AuthDialogContext.Provider value={value}>{children}</AuthDialogContext.Provider>;
}

export function useAuthDialog(): AuthDialogContextValue {
  const context = useContext(AuthDialogContext);
  if (!context) throw new Error('useAuthDialog must be used inside <AuthDialogProvider>');
  return context;
}
