import { type FormEvent, useState } from 'react';
import { serverReason } from './api';

type Send<Input> = (
  input: Input,
  callbacks: { onSuccess: () => void; onError: (error: unknown) => void },
) => void;

type CheckedSubmitOptions<Input> = {
  /** What is missing (shown as the form's problem, nothing is sent), or the input to send. */
  check: () => { problem: string } | { input: Input };
  /** Sends the call, e.g. a mutation's `mutate`. */
  send: Send<Input>;
  /** The form is over: true after the call succeeded. */
  onDone: (done: boolean) => void;
  /** The call was refused; the server's reason, if it gave one. */
  onFailed: (detail: string | undefined) => void;
  /** Logged with the error when the call fails. */
  failureLog: string;
};

/**
 * The submit of a small form that sends one call: check first, then send; success ends the form, a
 * refusal is logged and handed on. `problem` is what the form shows until the user fixes it.
 */
export function useCheckedSubmit<Input>({
  check,
  send,
  onDone,
  onFailed,
  failureLog,
}: CheckedSubmitOptions<Input>) {
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = check();
    if ('problem' in checked) {
      setProblem(checked.problem);
      return;
    }
    setProblem(null);
    send(checked.input, {
      onSuccess: () => onDone(true),
      onError: (error) => {
        console.error(failureLog, error);
        onFailed(serverReason(error));
      },
    });
  };
  return { problem, setProblem, submit };
}
