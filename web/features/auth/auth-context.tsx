import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { TokenClaims } from '../../../contract/auth';
import type { ErrorCode } from '../../../contract/errors';
import type { User } from '../../../contract/users';
import { onUnauthorized } from '../../lib/api';
import { clearStoredToken, getStoredToken, storeToken } from '../../lib/auth-token';
import { useAfterFirstPage } from '../../lib/first-page-shown';
import { validClaims } from '../../lib/jwt';
import { authApi, currentUserQueryKey, fetchCurrentUser } from './auth-api';

/**
 * Who is signed in. The full record once GET /user-profile answers; until then, or if it fails,
 * the minimal user the token itself names (spec §4).
 */
export type CurrentUser = Pick<User, 'id' | 'username' | 'email'> &
  Partial<Omit<User, 'id' | 'username' | 'email'>>;

type AuthContextValue = {
  token: string | null;
  user: CurrentUser | null;
  isAuthenticated: boolean;
  /** Stores a token the server issued; false (and still signed out) when the token is unreadable or expired. */
  signIn: (token: string, user?: User) => boolean;
  /**
   * Forgets the token and everything fetched with it. 'logout' when the user asked for it; 'ended' when
   * the session ran out (expired or refused token), after which signed-in pages ask to sign in again.
   * `message` says why, for the signed-out tab to show (a session ended from another device).
   */
  signOut: (reason?: SignOutReason, message?: string | null) => void;
  /** Signs out on the server (POST /auth/logout), then here, even when the server could not be reached. */
  logout: () => Promise<void>;
  /** Why the last session ended; null while signed in or before any sign-out. */
  signOutReason: SignOutReason | null;
  /** The server's words for why this tab was signed out, until the next sign-in or until dismissed. */
  signOutMessage: string | null;
  dismissSignOutMessage: () => void;
};

export type SignOutReason = 'logout' | 'ended';

const AuthContext = createContext<AuthContextValue | null>(null);

const sessionEndedCode: ErrorCode = 'SESSION_ENDED';

// setTimeout fires at once for delays beyond 2^31-1 ms; tokens last 7 days, well below.
const maxTimerDelay = 2 ** 31 - 1;
/** Signing out waits this long at most for the server to end the session. */
const logoutTimeoutMs = 5000;

function initialToken(): string | null {
  const stored = getStoredToken();
  if (stored && !validClaims(stored)) {
    // Expired or unparsable: signed out, silently.
    clearStoredToken();
    return null;
  }
  return stored;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(initialToken);
  const [signOutReason, setSignOutReason] = useState<SignOutReason | null>(null);
  const [signOutMessage, setSignOutMessage] = useState<string | null>(null);
  const claims: TokenClaims | null = useMemo(() => validClaims(token), [token]);

  const signOut = useCallback(
    (reason: SignOutReason = 'logout', message: string | null = null) => {
      clearStoredToken();
      setToken(null);
      setSignOutReason(reason);
      setSignOutMessage(message);
      queryClient.clear();
    },
    [queryClient],
  );
  const endSession = useCallback(() => signOut('ended'), [signOut]);
  const dismissSignOutMessage = useCallback(() => setSignOutMessage(null), []);

  const logout = useCallback(async () => {
    try {
      await authApi.logout(AbortSignal.timeout(logoutTimeoutMs));
    } catch (error) {
      // Signed out here all the same; the session then ends when its token expires.
      console.warn('Signing out on the server failed', error);
    } finally {
      signOut('logout');
    }
  }, [signOut]);

  const signIn = useCallback(
    (newToken: string, user?: User) => {
      if (!validClaims(newToken)) return false;
      queryClient.clear();
      storeToken(newToken);
      if (user) queryClient.setQueryData(currentUserQueryKey, user);
      setToken(newToken);
      setSignOutReason(null);
      setSignOutMessage(null);
      return true;
    },
    [queryClient],
  );

  // The server refused our token: expired or revoked by a password reset (silently), or its session was
  // ended from another device (with the server's words for it, which the login dialog shows).
  useEffect(
    () =>
      onUnauthorized((refusal) =>
        signOut('ended', refusal.code === sessionEndedCode ? (refusal.serverMessage ?? null) : null),
      ),
    [signOut],
  );

  // Sign out the moment the token expires, not at the next failed call.
  useEffect(() => {
    if (!claims) return;
    const timer = setTimeout(
      endSession,
      Math.min(Math.max(claims.exp * 1000 - Date.now(), 0), maxTimerDelay),
    );
    return () => clearTimeout(timer);
  }, [claims, endSession]);

  // Asked once the first page is shown: that page's own data comes first (who is signed in is known from
  // the token meanwhile).
  const afterFirstPage = useAfterFirstPage();
  const profile = useQuery({
    queryKey: currentUserQueryKey,
    queryFn: fetchCurrentUser,
    enabled: !!claims && afterFirstPage,
    // Refetched after sign-in even when seeded with the sign-in answer.
    staleTime: 0,
  });

  const value = useMemo<AuthContextValue>(() => {
    const user: CurrentUser | null = claims
      ? (profile.data ?? { id: claims.id, username: claims.username, email: claims.email })
      : null;
    return {
      token: claims ? token : null,
      user,
      isAuthenticated: !!claims,
      signIn,
      signOut,
      logout,
      signOutReason,
      signOutMessage,
      dismissSignOutMessage,
    };
  }, [
    claims,
    token,
    profile.data,
    signIn,
    signOut,
    logout,
    signOutReason,
    signOutMessage,
    dismissSignOutMessage,
  ]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside <AuthProvider>');
  return context;
}
