import { type FormEvent, useState } from 'react';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/input';
import { ApiError, errorMessage } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { useRegister } from './auth-api';
import { loadAuthSchemas, usePreloadedAuthSchemas } from './auth-schemas';

export type RegisterFormProps = {
  /** Called with the message to show (the server's, else 'Registration successful!') and the new username. */
  onSuccess: (message: string, username: string) => void;
};

export function RegisterForm({ onSuccess }: RegisterFormProps) {
  const register = useRegister();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // What the contract's schema refused at the last submit, by field.
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});
  usePreloadedAuthSchemas();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = { full_name: fullName, email, username, password };
    const schemas = await loadAuthSchemas();
    const checked = schemas && checkWith(schemas.registerRequestSchema, input);
    setProblems(checked && !checked.ok ? checked.problems : {});
    if (checked && !checked.ok) return;
    const body = checked ? checked.value : input;
    register.mutate(body, {
      onSuccess: (answer) => onSuccess(answer?.message || 'Registration successful!', body.username),
    });
  };

  const serverErrors = register.error instanceof ApiError ? (register.error.fieldErrors ?? {}) : {};
  const fieldErrors = { ...serverErrors, ...problems };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-4">
      {register.isError && (
        <Alert variant="error">{errorMessage(register.error, 'Registration failed')}</Alert>
      )}
      <TextField
        label="Full Name"
        error={fieldErrors.full_name}
        name="full_name"
        autoComplete="name"
        required
        maxLength={limits.fullName.max}
        value={fullName}
        onChange={(event) => setFullName(event.target.value)}
        placeholder="Jane Doe"
      />
      <TextField
        label="Email"
        error={fieldErrors.email}
        type="email"
        name="email"
        autoComplete="email"
        required
        maxLength={limits.email.max}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder="jane@example.com"
      />
      <TextField
        label="Username"
        hint={`${limits.username.min}–${limits.username.max} characters: letters, digits, dot, dash or underscore.`}
        error={fieldErrors.username}
        name="username"
        autoComplete="username"
        required
        maxLength={limits.username.max}
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        placeholder="janedoe"
      />
      <TextField
        label="Password"
        hint={`At least ${limits.password.min} characters.`}
        error={fieldErrors.password}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        placeholder="Choose a password"
      />
      <Button type="submit" size="lg" className="w-full" loading={register.isPending}>
        {register.isPending ? 'Creating account...' : 'Register'}
      </Button>
    </form>
  );
}
