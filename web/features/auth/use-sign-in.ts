import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { LoginRequest, LoginResponse } from '../../../contract/auth';
import type { TwoFactorChallenge } from '../../../contract/security';
import { ApiError, errorMessage } from '../../lib/api';
import { passkeyAssertion, passkeyPromptProblem } from '../../lib/passkeys';
import { authApi } from './auth-api';
import { useAuth } from './auth-context';

/** Stores the token of a completed sign-in (a throw when the answer carries none the app can read). */
export function useCompleteSignIn() {
  const { signIn } = useAuth();
  return (answer: LoginResponse) => {
    if (!signIn(answer.token, answer.user)) {
      throw new Error('The sign-in answer carried no usable token.');
    }
    return answer;
  };
}

/** Why a sign-in step failed, in words: the server's, the browser's passkey prompt's, else `fallback`. */
export function signInProblem(error: unknown, fallback: string): string {
  return passkeyPromptProblem(error) ?? errorMessage(error, fallback);
}

/** Sign-in refused because the email is not verified yet (403): the form offers a new verification mail. */
export const isUnverifiedEmail = (error: unknown) => error instanceof ApiError && error.status === 403;

/**
 * The sign-in form's steps: the password (the spec's call), then for an account with a second factor the
 * challenge the second step answers; or a passkey alone. `onSignedIn` runs once a token is stored.
 */
export function useSignInFlow(onSignedIn?: () => void) {
  const complete = useCompleteSignIn();
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  // Why the second step was given up (an expired or exhausted challenge), shown on the password step.
  const [restartReason, setRestartReason] = useState<string | null>(null);

  const password = useMutation({
    mutationFn: async (credentials: LoginRequest) => {
      const answer = await authApi.login(credentials);
      return 'twoFactorRequired' in answer ? answer : complete(answer);
    },
    onMutate: () => {
      setRestartReason(null);
      passkey.reset();
    },
    onSuccess: (answer) => {
      if ('twoFactorRequired' in answer) setChallenge(answer);
      else onSignedIn?.();
    },
  });

  const passkey = useMutation({
    mutationFn: async () => {
      const options = await authApi.passkeySignInOptions();
      return complete(await authApi.passkeySignIn(await passkeyAssertion(options)));
    },
    onMutate: () => {
      setRestartReason(null);
      password.reset();
    },
    onSuccess: () => onSignedIn?.(),
  });

  /** Back to the password step, saying why when the challenge died. */
  const restart = (reason: string | null = null) => {
    setChallenge(null);
    setRestartReason(reason);
    password.reset();
  };

  return { password, passkey, challenge, restart, restartReason };
}
