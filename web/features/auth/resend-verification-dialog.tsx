import { type FormEvent, useState } from 'react';
import { resendVerificationSchema } from '../../../contract/security';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/input';
import { errorMessage } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { useResendVerification } from './auth-api';

type ResendVerificationDialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

/** Asks for a new verification link (POST /auth/register/resend), for a sign-in refused as unverified. */
export function ResendVerificationDialog({ open, onOpenChange }: ResendVerificationDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Resend the verification mail"
      description="Enter the email address you registered with and we will send you a new verification link."
    >
      {/* Inside the dialog's content, so every opening starts with a fresh form. */}
      <ResendForm onDismiss={() => onOpenChange(false)} />
    </Dialog>
  );
}

function ResendForm({ onDismiss }: { onDismiss: () => void }) {
  const resend = useResendVerification();
  const [email, setEmail] = useState('');
  // What the contract's schema refused at the last submit.
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWith(resendVerificationSchema, { email });
    setProblem(checked.ok ? null : checked.problem);
    if (checked.ok) resend.mutate(checked.value.email);
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      {resend.isSuccess && (
        <Alert variant="success">{resend.data?.message || 'A new verification link is on its way.'}</Alert>
      )}
      {resend.isError && (
        <Alert variant="error">
          {errorMessage(resend.error, 'The mail could not be sent. Please try again later.')}
        </Alert>
      )}
      <TextField
        label="Email"
        error={problem ?? undefined}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder="you@example.com"
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDismiss}>
          Dismiss
        </Button>
        <Button type="submit" loading={resend.isPending}>
          {resend.isPending ? 'Sending...' : 'Send the link'}
        </Button>
      </div>
    </form>
  );
}
