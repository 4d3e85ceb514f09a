import { type FormEvent, useState } from 'react';
import { limits } from '../../../contract/limits';
import { emailChangeSchema } from '../../../contract/security';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { useAuth } from '../auth';
import { useChangeEmail } from './security-api';
import { SecurityCard } from './security-card';

/** A new email address: confirmed by a link mailed there (the current address is told too). */
export function ChangeEmailCard() {
  const { user } = useAuth();
  const change = useChangeEmail();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  // What the contract's schema refused at the last submit, by field.
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});
  const serverErrors = change.error instanceof ApiError ? (change.error.fieldErrors ?? {}) : {};
  const fieldErrors = { ...serverErrors, ...problems };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (change.isPending) return;
    const checked = checkWith(emailChangeSchema, { newEmail, password });
    setProblems(checked.ok ? {} : checked.problems);
    if (!checked.ok) return;
    change.mutate(
      { newEmail, password },
      {
        onSuccess: () => {
          setNewEmail('');
          setPassword('');
        },
      },
    );
  };

  return (
    <SecurityCard
      title="Email"
      description={
        <>
          Your email is <span className="font-medium break-all text-slate-900">{user?.email}</span>. A new one
          takes effect once you open the link we mail to it.
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4">
        {change.isSuccess && <Alert variant="success">{change.data.message}</Alert>}
        {change.isError && (
          <Alert variant="error" detail={serverReason(change.error)}>
            Your email was not changed.
          </Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="New email"
            type="email"
            name="newEmail"
            autoComplete="email"
            required
            maxLength={limits.email.max}
            error={fieldErrors.newEmail}
            value={newEmail}
            onChange={(event) => setNewEmail(event.target.value)}
          />
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
        </div>
        <Button type="submit" loading={change.isPending}>
          {change.isPending ? 'Sending...' : 'Change email'}
        </Button>
      </form>
    </SecurityCard>
  );
}
