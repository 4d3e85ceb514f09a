import { type FormEvent, useId, useState } from 'react';
import type { TwoFactorChallenge } from '../../../contract/security';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { KeyIcon } from '../../components/ui/icons';
import { FactorCodeField } from './factor-code-field';
import { useSecondStep } from './use-second-step';
import { signInProblem } from './use-sign-in';

type SecondStepFormProps = {
  challenge: TwoFactorChallenge;
  onSignedIn?: () => void;
  /** The challenge died (expired, too many wrong codes): back to the password step with the reason. */
  onExpired: (reason: string) => void;
  /** The person wants to start over (another account, another password). */
  onBack: () => void;
};

const intro = {
  code: 'Enter the 6-digit code from your authenticator app.',
  recovery: 'Enter one of the recovery codes you saved when you turned on two-factor sign-in.',
};

/** The second step of signing in to an account with two-factor sign-in on: code, recovery code or passkey. */
export function SecondStepForm({ challenge, onSignedIn, onExpired, onBack }: SecondStepFormProps) {
  const step = useSecondStep(challenge, { onSignedIn, onExpired });
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (step.busy) return;
    const refused = step.problemWith(value);
    setProblem(refused);
    if (!refused) step.submit.mutate(value);
  };
  const change = (next: string) => {
    setValue(next);
    setProblem(null);
  };
  const switchKind = () => {
    change('');
    step.switchKind();
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-labelledby={titleId}>
      <div className="space-y-1">
        <p id={titleId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <KeyIcon size={18} className="text-indigo-600" />
          Two-factor authentication
        </p>
        <p className="text-sm text-slate-600">{intro[step.kind]}</p>
      </div>
      {step.error ? (
        <Alert variant="error">{signInProblem(step.error, 'That did not work. Please try again.')}</Alert>
      ) : null}
      <FactorCodeField kind={step.kind} value={value} onChange={change} error={problem ?? undefined} focus />
      <Button type="submit" size="lg" className="w-full" loading={step.submit.isPending}>
        {step.submit.isPending ? 'Verifying...' : 'Verify'}
      </Button>
      {step.offersPasskey && (
        <Button
          variant="outline"
          className="w-full"
          loading={step.passkey.isPending}
          disabled={step.busy}
          onClick={() => step.passkey.mutate()}
        >
          <KeyIcon size={16} />
          Use a passkey
        </Button>
      )}
      <div className="flex flex-wrap items-center justify-between gap-x-4">
        {step.canSwitch && (
          <Button variant="link" className="text-sm" onClick={switchKind}>
            {step.kind === 'code' ? 'Use a recovery code' : 'Use your authenticator app'}
          </Button>
        )}
        <Button variant="link" className="text-sm" onClick={onBack}>
          Back to sign in
        </Button>
      </div>
    </form>
  );
}
