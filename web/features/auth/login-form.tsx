import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { KeyIcon } from '../../components/ui/icons';
import { Checkbox, TextField } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { passkeysSupported } from '../../lib/passkeys';
import { useAuth } from './auth-context';
import { loadAuthSchemas, usePreloadedAuthSchemas } from './auth-schemas';
import { ResetRequestDialog } from './reset-request-dialog';
import { isUnverifiedEmail, signInProblem, useSignInFlow } from './use-sign-in';

// Only some sign-ins get this far: loaded when needed, not with every page (the landing page's budget).
// Pure: a page that imports the auth feature but shows no login form does not carry this module for them.
const SecondStepForm = /* @__PURE__ */ lazy(() =>
  import('./second-step-form').then((m) => ({ default: m.SecondStepForm })),
);
const ResendVerificationDialog = /* @__PURE__ */ lazy(() =>
  import('./resend-verification-dialog').then((m) => ({ default: m.ResendVerificationDialog })),
);

export type LoginFormProps = {
  /** Called once signed in. */
  onSuccess?: () => void;
  /** A message to show above the form (e.g. the answer to a registration). */
  notice?: string | null;
  defaultUsername?: string;
};

/**
 * Sign-in: username and password (the spec's form), then, for an account with two-factor sign-in on,
 * the second step in the same place; or a passkey alone.
 */
export function LoginForm({ onSuccess, notice, defaultUsername = '' }: LoginFormProps) {
  const flow = useSignInFlow(onSuccess);
  // Kept here, so that coming back from the second step finds it still filled in.
  const [username, setUsername] = useState(defaultUsername);
  if (flow.challenge) {
    return (
      <Suspense fallback={<LoadingState label="Loading the second step..." className="py-6" />}>
        <SecondStepForm
          challenge={flow.challenge}
          onSignedIn={onSuccess}
          onExpired={flow.restart}
          onBack={() => flow.restart()}
        />
      </Suspense>
    );
  }
  return <PasswordStep flow={flow} notice={notice} username={username} onUsernameChange={setUsername} />;
}

function PasswordStep({
  flow,
  notice,
  username,
  onUsernameChange: setUsername,
}: {
  flow: ReturnType<typeof useSignInFlow>;
  notice?: string | null;
  username: string;
  onUsernameChange: (username: string) => void;
}) {
  const { password: login, passkey } = flow;
  const { signOutMessage } = useAuth();
  const [password, setPassword] = useState('');
  // Kept for the familiar form; the token always lasts its full lifetime.
  const [rememberMe, setRememberMe] = useState(true);
  const [resetOpen, setResetOpen] = useState(false);
  const [resendOpen, setResendOpen] = useState(false);
  // What the contract's schema refused at the last submit.
  const [problem, setProblem] = useState<string | null>(null);
  usePreloadedAuthSchemas();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const credentials = { username, password };
    const schemas = await loadAuthSchemas();
    const checked = schemas && checkWith(schemas.loginRequestSchema, credentials);
    setProblem(checked && !checked.ok ? checked.problem : null);
    if (checked && !checked.ok) return;
    login.mutate(checked ? checked.value : credentials);
  };

  return (
    <>
      <form onSubmit={(event) => void submit(event)} className="space-y-4">
        {notice && <Alert variant="success">{notice}</Alert>}
        {!notice && signOutMessage && <Alert variant="info">{signOutMessage}</Alert>}
        {flow.restartReason && <Alert variant="error">{flow.restartReason}</Alert>}
        {problem && <Alert variant="error">{problem}</Alert>}
        {login.isError && <Alert variant="error">{errorMessage(login.error, 'Login failed')}</Alert>}
        {login.isError && isUnverifiedEmail(login.error) && (
          <Button variant="link" className="text-sm" onClick={() => setResendOpen(true)}>
            Resend the verification mail
          </Button>
        )}
        {passkey.isError && (
          <Alert variant="error">{signInProblem(passkey.error, 'Signing in with a passkey failed.')}</Alert>
        )}
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          placeholder="Your username"
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          placeholder="Your password"
        />
        <div className="flex items-center justify-between gap-3">
          <Checkbox
            label="Remember me"
            checked={rememberMe}
            onChange={(event) => setRememberMe(event.target.checked)}
          />
          <Button variant="link" className="text-sm" onClick={() => setResetOpen(true)}>
            Forgot password?
          </Button>
        </div>
        <Button type="submit" size="lg" className="w-full" loading={login.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign In'}
        </Button>
        {passkeysSupported() && (
          <Button
            variant="outline"
            className="w-full"
            loading={passkey.isPending}
            disabled={login.isPending}
            onClick={() => passkey.mutate()}
          >
            <KeyIcon size={16} />
            {/* Not "Sign in with…": the form's one "Sign In" button stays the only one by that name. */}
            Continue with a passkey
          </Button>
        )}
      </form>
      <ResetRequestDialog open={resetOpen} onOpenChange={setResetOpen} />
      {resendOpen && (
        <Suspense fallback={null}>
          <ResendVerificationDialog open onOpenChange={setResendOpen} />
        </Suspense>
      )}
    </>
  );
}
