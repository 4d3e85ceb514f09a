import { type FormEvent, useState } from 'react';
import { serverReason } from './api';
import type { FormCheck } from './form-check';

type Send<Input> = (
  input: Input,
  callbacks: { onSuccess: () => void; onError: (error: unknown) => void },
) => void;

type CheckedSubmitOptions<Input> = {
  /** The form's input checked (by the contract's schema, checkWith): what to send, or what is wrong. */
  check: () => FormCheck<Input>;
  /** Sends the call, e.g. a mutation's `mutate`. */
  send: Send<Input>;
  /** The form is over: true after the call succeeded. */
  onDone: (done: boolean) => void;
  /** The call was refused; the server's reason, if it gave one. */
  onFailed: (detail: string | undefined) => void;
  /** Logged with the error when the call fails. */
  failureLog: string;
};

type Refused = Extract<FormCheck<unknown>, { ok: false }>;

/**
 * The submit of a small form that sends one call: check first, then send; success ends the form, a
 * refusal is logged and handed on. What the check refused (`problem`, the first message; `problems`,
 * by field) is what the form shows until the user fixes it (`clearProblem`) or submits again.
 */
export function useCheckedSubmit<Input>({
  check,
  send,
  onDone,
  onFailed,
  failureLog,
}: CheckedSubmitOptions<Input>) {
  const [refused, setRefused] = useState<Refused | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = check();
    if (!checked.ok) {
      setRefused(checked);
      return;
    }
    setRefused(null);
    send(checked.value, {
      onSuccess: () => onDone(true),
      onError: (error) => {
        console.error(failureLog, error);
        onFailed(serverReason(error));
      },
    });
  };
  return {
    problem: refused?.problem ?? null,
    problems: refused?.problems ?? {},
    clearProblem: () => setRefused(null),
    submit,
  };
}
