import { type FormEvent, useState } from 'react';
import { totpDisableSchema } from '../../../contract/security';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';

type TotpDisableFormProps = {
  disabling: { isPending: boolean; error: unknown };
  onSubmit: (input: { password: string; code: string }) => void;
  onCancel: () => void;
};

/** Turning the app off asks for both the password and a code (from the app, or a recovery code). */
export function TotpDisableForm({ disabling, onSubmit, onCancel }: TotpDisableFormProps) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  // What the contract's schema refused at the last submit, by field.
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});
  const serverErrors = disabling.error instanceof ApiError ? (disabling.error.fieldErrors ?? {}) : {};
  const fieldErrors = { ...serverErrors, ...problems };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disabling.isPending) return;
    const checked = checkWith(totpDisableSchema, { password, code });
    setProblems(checked.ok ? {} : checked.problems);
    if (checked.ok) onSubmit({ password, code });
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      <p className="text-sm text-slate-700">
        Without the app, a stolen password alone signs in to your account. Confirm with your password and a
        code.
      </p>
      {disabling.error ? (
        <Alert variant="error" detail={serverReason(disabling.error)}>
          The authenticator app is still on.
        </Alert>
      ) : null}
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        error={fieldErrors.password}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <TextField
        label="Code from your app or a recovery code"
        name="code"
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={fieldErrors.code}
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="danger" loading={disabling.isPending}>
          {disabling.isPending ? 'Turning off...' : 'Turn off the app'}
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={disabling.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
