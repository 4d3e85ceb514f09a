import { type FormEvent, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ErrorRetry } from '../../components/ui/error-retry';
import { KeyIcon } from '../../components/ui/icons';
import { LoadingState } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { FactorCodeField } from './factor-code-field';
import { signInProblem } from './use-sign-in';
import { useStepUpForm } from './use-step-up-form';

/** What the step-up dialog asks: a code (or recovery code) and a passkey, or the password. */
export function StepUpForm({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const form = useStepUpForm(onConfirmed);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  if (form.status.isPending) return <LoadingState label="Loading your sign-in methods..." className="py-6" />;
  if (form.status.isError || !form.kind) {
    return (
      <ErrorRetry detail={serverReason(form.status.error)} onRetry={form.status.refetch}>
        Your sign-in methods could not be loaded.
      </ErrorRetry>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (form.busy) return;
    const refused = form.problemWith(value);
    setProblem(refused);
    if (!refused) form.submit.mutate(value);
  };
  const change = (next: string) => {
    setValue(next);
    setProblem(null);
  };
  const switchKind = () => {
    change('');
    form.switchKind();
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      {form.error ? (
        <Alert variant="error">{signInProblem(form.error, 'That did not work. Please try again.')}</Alert>
      ) : null}
      <FactorCodeField kind={form.kind} value={value} onChange={change} error={problem ?? undefined} focus />
      {(form.canSwitch || form.offersPasskey) && (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
          {form.canSwitch && (
            <Button variant="link" className="text-sm" onClick={switchKind}>
              {form.kind === 'code' ? 'Use a recovery code' : 'Use your authenticator app'}
            </Button>
          )}
          {form.offersPasskey && (
            <Button
              variant="link"
              className="text-sm"
              disabled={form.busy}
              onClick={() => form.passkey.mutate()}
            >
              <KeyIcon size={16} />
              {form.passkey.isPending ? 'Waiting for your passkey...' : 'Use a passkey'}
            </Button>
          )}
        </div>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={form.busy}>
          Cancel
        </Button>
        <Button type="submit" loading={form.submit.isPending}>
          {form.submit.isPending ? 'Confirming...' : 'Confirm'}
        </Button>
      </div>
    </form>
  );
}
