import { type FormEvent, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Checkbox, TextField } from '../../components/ui/input';
import { errorMessage } from '../../lib/api';
import { useLogin } from './auth-context';
import { ResetRequestDialog } from './reset-request-dialog';

type LoginFormProps = {
  /** Called once signed in. */
  onSuccess?: () => void;
  /** A message to show above the form (e.g. the answer to a registration). */
  notice?: string | null;
  defaultUsername?: string;
};

export function LoginForm({ onSuccess, notice, defaultUsername = '' }: LoginFormProps) {
  const login = useLogin();
  const [username, setUsername] = useState(defaultUsername);
  const [password, setPassword] = useState('');
  // Kept for the familiar form; the token always lasts its full lifetime.
  const [rememberMe, setRememberMe] = useState(true);
  const [resetOpen, setResetOpen] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    login.mutate({ username: username.trim(), password }, { onSuccess: () => onSuccess?.() });
  };

  return (
    <>
      <form onSubmit={submit} className="space-y-4">
        {notice && <Alert variant="success">{notice}</Alert>}
        {login.isError && <Alert variant="error">{errorMessage(login.error, 'Login failed')}</Alert>}
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
      </form>
      <ResetRequestDialog open={resetOpen} onOpenChange={setResetOpen} />
    </>
  );
}
