import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { secondStepRequestSchema, type TwoFactorChallenge } from '../../../contract/security';
import { ApiError, errorMessage } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { passkeyAssertion } from '../../lib/passkeys';
import { authApi, type SecondStepAnswer } from './auth-api';
import { useCompleteSignIn } from './use-sign-in';

/**
 * The second step: a code from the authenticator app, a recovery code or a passkey. A wrong answer
 * (INVALID_SECOND_FACTOR) is shown in place; a challenge that expired or had too many wrong answers
 * (any other 401) sends the person back to the password step with the server's words.
 */
export function useSecondStep(
  challenge: TwoFactorChallenge,
  handlers: { onSignedIn?: () => void; onExpired: (reason: string) => void },
) {
  const complete = useCompleteSignIn();
  const hasApp = challenge.methods.includes('totp');
  const [kind, setKind] = useState<'code' | 'recovery'>(hasApp ? 'code' : 'recovery');

  const answerWith = async (answer: SecondStepAnswer) =>
    complete(await authApi.loginSecondStep(challenge.challenge, answer));
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401 && error.code !== 'INVALID_SECOND_FACTOR') {
      handlers.onExpired(errorMessage(error, 'This sign-in has expired. Please sign in again.'));
    }
  };

  const answerOf = (value: string): { code: string } | { recoveryCode: string } =>
    kind === 'code' ? { code: value.trim() } : { recoveryCode: value.trim() };
  /** What the contract's schema of the request refuses in the code typed, before it is sent (null: nothing). */
  const problemWith = (value: string) => {
    const checked = checkWith(secondStepRequestSchema, {
      challenge: challenge.challenge,
      ...answerOf(value),
    });
    return checked.ok ? null : checked.problem;
  };
  const submit = useMutation({
    mutationFn: (value: string) => answerWith(answerOf(value)),
    onSuccess: () => handlers.onSignedIn?.(),
    onError,
  });
  const passkey = useMutation({
    mutationFn: async () => {
      if (!challenge.passkeyOptions) throw new Error('This sign-in offers no passkey.');
      return answerWith({ passkey: await passkeyAssertion(challenge.passkeyOptions) });
    },
    onMutate: () => submit.reset(),
    onSuccess: () => handlers.onSignedIn?.(),
    onError,
  });

  const switchKind = () => {
    setKind((current) => (current === 'code' ? 'recovery' : 'code'));
    submit.reset();
    passkey.reset();
  };

  return {
    kind,
    switchKind,
    problemWith,
    canSwitch: hasApp && challenge.methods.includes('recovery'),
    offersPasskey: challenge.methods.includes('passkey') && !!challenge.passkeyOptions,
    submit,
    passkey,
    error: submit.error ?? passkey.error,
    busy: submit.isPending || passkey.isPending,
  };
}
