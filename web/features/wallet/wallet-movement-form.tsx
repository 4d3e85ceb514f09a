import { type FormEvent, useState } from 'react';
import { amountToCents, formatCents, formatUsdCents } from '../../../contract/money';
import {
  depositRequestSchema,
  type WalletMovementResponse,
  withdrawRequestSchema,
} from '../../../contract/wallet';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { useConfirmationOf } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/input';
import { errorMessage } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { useIdempotencyKeys } from '../../lib/idempotency-key';
import { useTimedMessage } from '../../lib/use-timed-message';
import { type MovementKind, useWallet, useWalletMovement } from './wallet-api';
import { movementConfirmation } from './wallet-confirmations';
import { checkAmount } from './wallet-format';

/** Success messages stay 5 seconds (spec §9). */
const successDurationMs = 5000;

/** The contract's schema of each movement's request (POST /wallet/deposit, /wallet/withdraw). */
const requestSchemas = { deposit: depositRequestSchema, withdraw: withdrawRequestSchema };

export type WalletMovementFormProps = {
  kind: MovementKind;
  title: string;
  description: string;
  submitLabel: string;
  /** The most this form accepts, in cents; null while unknown (the form waits). */
  maxCents: number | null;
  /** The message for an amount above maxCents. */
  tooMuch: (maxCents: number) => string;
  hint: string;
  success: (answer: WalletMovementResponse, cents: number) => string;
  failure: string;
};

/** An Amount ($) field and its button: Deposit Money, or Withdraw Money. */
export function WalletMovementForm({
  kind,
  title,
  description,
  submitLabel,
  maxCents,
  tooMuch,
  hint,
  success,
  failure,
}: WalletMovementFormProps) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [done, showDone] = useTimedMessage<string>(successDurationMs);
  const keys = useIdempotencyKeys();
  const move = useWalletMovement(kind);
  const balance = useWallet().data?.balance;
  // Built on every render while open: the balance may arrive after the click.
  const confirmation = useConfirmationOf(({ cents, run }: { cents: number; run: () => unknown }) =>
    movementConfirmation(kind, cents, balance === undefined ? undefined : amountToCents(balance), {
      onConfirm: run,
    }),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (move.isPending || maxCents === null) return;
    // The amount as typed, within this form's bound (the balance, for a withdrawal), in the words the
    // page gives; then the request, checked by the contract's schema.
    const check = checkAmount(value, { maxCents, tooMuch });
    if (!check.ok) {
      setProblem(check.error);
      return;
    }
    const request = checkWith(requestSchemas[kind], { amount: check.amount });
    if (!request.ok) {
      setProblem(request.problem);
      return;
    }
    setProblem(null);
    setFailed(null);
    showDone(null);
    const action = `${kind}:${check.cents}`;
    const run = () =>
      move.mutateSettled(
        { amount: check.amount, idempotencyKey: keys.keyFor(action) },
        {
          onSuccess: (answer) => {
            keys.succeeded(action);
            setValue('');
            showDone(success(answer, check.cents));
          },
          onError: (error) => {
            console.error(`Wallet ${kind} failed`, error);
            setFailed(errorMessage(error, failure));
          },
        },
      );
    confirmation.ask({ cents: check.cents, run });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextField
            label="Amount ($)"
            hint={hint}
            error={problem ?? undefined}
            name="amount"
            type="number"
            inputMode="decimal"
            min={0.01}
            step={0.01}
            max={maxCents === null ? undefined : formatCents(maxCents)}
            placeholder="0.00"
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              setProblem(null);
            }}
          />
          <Button
            type="submit"
            className="w-full"
            disabled={value.trim() === '' || maxCents === null}
            loading={move.isPending}
          >
            {move.isPending ? 'Processing...' : submitLabel}
          </Button>
          {done && <Alert variant="success">{done}</Alert>}
          {failed && <Alert variant="error">{failed}</Alert>}
        </form>
        {confirmation.dialog}
      </CardContent>
    </Card>
  );
}

export const depositSuccess = (_answer: WalletMovementResponse, cents: number) =>
  `Successfully deposited ${formatUsdCents(cents)}`;
export const withdrawSuccess = (_answer: WalletMovementResponse, cents: number) =>
  `Successfully withdrew ${formatUsdCents(cents)}`;
