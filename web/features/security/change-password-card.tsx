import { type FormEvent, useState } from 'react';
import { limits } from '../../../contract/limits';
import { passwordChangeSchema } from '../../../contract/security';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { useChangePassword } from './security-api';
import { SecurityCard } from './security-card';

const emptyForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** A new password, given the current one; every other session is signed out with it. */
export function ChangePasswordCard() {
  const change = useChangePassword();
  const [values, setValues] = useState(emptyForm);
  const [mismatch, setMismatch] = useState(false);
  // What the contract's schema refused at the last submit, by field.
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});
  const set = (field: keyof typeof emptyForm) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  const serverErrors = change.error instanceof ApiError ? (change.error.fieldErrors ?? {}) : {};
  const fieldErrors = { ...serverErrors, ...problems };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const differs = values.newPassword !== values.confirmPassword;
    const input = { currentPassword: values.currentPassword, newPassword: values.newPassword };
    const checked = checkWith(passwordChangeSchema, input);
    setMismatch(differs);
    setProblems(checked.ok ? {} : checked.problems);
    if (differs || !checked.ok || change.isPending) return;
    change.mutate(input, { onSuccess: () => setValues(emptyForm) });
  };

  return (
    <SecurityCard
      title="Password"
      description="Change your password. Your other sessions are signed out; this one stays signed in."
    >
      <form onSubmit={submit} className="space-y-4">
        {change.isSuccess && (
          <Alert variant="success">{change.data.message || 'Your password has been changed.'}</Alert>
        )}
        {change.isError && (
          <Alert variant="error" detail={serverReason(change.error)}>
            Your password was not changed.
          </Alert>
        )}
        <TextField
          label="Current password"
          type="password"
          name="currentPassword"
          autoComplete="current-password"
          required
          error={fieldErrors.currentPassword}
          value={values.currentPassword}
          onChange={set('currentPassword')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="New password"
            hint={`At least ${limits.password.min} characters.`}
            type="password"
            name="newPassword"
            autoComplete="new-password"
            required
            minLength={limits.password.min}
            maxLength={limits.password.max}
            error={fieldErrors.newPassword}
            value={values.newPassword}
            onChange={set('newPassword')}
          />
          <TextField
            label="Confirm new password"
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            error={mismatch ? 'Passwords do not match.' : undefined}
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
          />
        </div>
        <Button type="submit" loading={change.isPending}>
          {change.isPending ? 'Changing...' : 'Change password'}
        </Button>
      </form>
    </SecurityCard>
  );
}
