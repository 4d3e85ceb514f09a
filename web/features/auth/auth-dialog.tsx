import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../components/ui/dialog';
import { LogoIcon } from '../../components/ui/icons';
import { Tabs } from '../../components/ui/tabs';
import { useAuth } from './auth-context';
import { type AuthTab, useAuthDialog } from './auth-dialog-context';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

/** The login / register dialog, opened from the navigation bar and the landing page. */
export function AuthDialog() {
  const { open, tab, redirectTo, closeAuthDialog, setTab } = useAuthDialog();
  const { dismissSignOutMessage } = useAuth();
  const navigate = useNavigate();
  const [registered, setRegistered] = useState<{ message: string; username: string } | null>(null);
  useSignInAgainWhenEnded();

  const onOpenChange = (next: boolean) => {
    if (next) return;
    closeAuthDialog();
    setRegistered(null);
    dismissSignOutMessage();
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Welcome to Dealmaker"
      description="Sign in to your account or create a new one."
      hideTitle
    >
      <div className="mb-6 flex flex-col items-center text-center">
        <span className="mb-3 flex h-12 w-12 items-center justify-center rounded-2xl bg-indigo-600 text-white shadow-lg shadow-indigo-600/30">
          <LogoIcon size={26} />
        </span>
        <p className="text-xl font-semibold text-slate-900">Welcome to Dealmaker</p>
        <p className="mt-1 text-sm text-slate-500">Sign in to your account or create a new one.</p>
      </div>
      <Tabs<AuthTab>
        label="Sign in or register"
        variant="pills"
        value={tab}
        onValueChange={setTab}
        listClassName="mb-6"
        tabs={[
          {
            value: 'login',
            label: 'Login',
            content: (
              <LoginForm
                key={registered?.username ?? ''}
                notice={registered?.message}
                defaultUsername={registered?.username}
                onSuccess={() => {
                  onOpenChange(false);
                  if (redirectTo) navigate(redirectTo);
                }}
              />
            ),
          },
          {
            value: 'register',
            label: 'Register',
            content: (
              <RegisterForm
                onSuccess={(message, username) => {
                  setRegistered({ message, username });
                  setTab('login');
                }}
              />
            ),
          },
        ]}
      />
    </Dialog>
  );
}

/**
 * A session ended from elsewhere (another device, a password change) signs this tab out with the
 * server's words for it: the login dialog opens and shows them (on whatever page the tab is on).
 */
function useSignInAgainWhenEnded() {
  const { signOutMessage } = useAuth();
  const { open, openAuthDialog, setTab } = useAuthDialog();
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when a new message arrives
  useEffect(() => {
    if (!signOutMessage) return;
    // Already open (a signed-in page sent the visitor home to sign in): keep where it returns to.
    if (open) setTab('login');
    else openAuthDialog('login');
  }, [signOutMessage]);
}
