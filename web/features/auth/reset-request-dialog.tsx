import { type FormEvent, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/input';
import { errorMessage } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { useRequestPasswordReset } from './auth-api';
import { loadAuthSchemas, usePreloadedAuthSchemas } from './auth-schemas';

export type ResetRequestDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Pre-fills the email (e.g. the signed-in user's own). */
  defaultEmail?: string;
};

/** Asks the server to mail a reset-password link (spec §2 Reset-password request dialog). */
export function ResetRequestDialog({ open, onOpenChange, defaultEmail }: ResetRequestDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Reset your password"
      description="Enter the email address of your account and we will send you a link to choose a new password."
    >
      {/* Inside the dialog's content, so every opening starts with a fresh form. */}
      <ResetRequestForm defaultEmail={defaultEmail ?? ''} onDismiss={() => onOpenChange(false)} />
    </Dialog>
  );
}

type Result = { kind: 'success' | 'error'; text: string };

function ResetRequestForm({ defaultEmail, onDismiss }: { defaultEmail: string; onDismiss: () => void }) {
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState(defaultEmail);
  const [result, setResult] = useState<Result | null>(null);
  // What the contract's schema refused at the last submit.
  const [problem, setProblem] = useState<string | null>(null);
  usePreloadedAuthSchemas();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setResult(null);
    const schemas = await loadAuthSchemas();
    const checked = schemas && checkWith(schemas.resetRequestSchema, { email });
    setProblem(checked && !checked.ok ? checked.problem : null);
    if (checked && !checked.ok) return;
    request.mutate(checked ? checked.value.email : email, {
      onSuccess: (answer) =>
        setResult(
          answer.success
            ? { kind: 'success', text: answer.message || 'Password reset link has been sent to your email.' }
            : { kind: 'error', text: answer.message || 'Failed to send reset link. Please try again.' },
        ),
      onError: (error) =>
        setResult({
          kind: 'error',
          text: errorMessage(error, 'An unexpected error occurred. Please try again later.'),
        }),
    });
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-4">
      {result && <Alert variant={result.kind}>{result.text}</Alert>}
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
        <Button type="submit" loading={request.isPending}>
          {request.isPending ? 'Sending...' : 'Send Reset Link'}
        </Button>
      </div>
    </form>
  );
}
