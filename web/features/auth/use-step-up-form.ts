import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { stepUpRequestSchema } from '../../../contract/security';
import { checkWith } from '../../lib/form-check';
import { passkeyAssertion } from '../../lib/passkeys';
import { authApi, securityStatusQueryKey } from './auth-api';
import type { CodeKind } from './factor-code-field';

/**
 * The step-up form: which factors the account has (GET /auth/2fa) decides what it asks — a code from
 * the app (or a recovery code) and a passkey button, or the password of an account without a factor.
 */
export function useStepUpForm(onConfirmed: () => void) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: securityStatusQueryKey,
    queryFn: ({ signal }) => authApi.securityStatus(signal),
    staleTime: 0,
  });
  const [chosen, setChosen] = useState<CodeKind | null>(null);
  const factors = status.data;
  const kind: CodeKind | null = !factors
    ? null
    : !factors.stepUpRequired
      ? 'password'
      : (chosen ?? (factors.totp ? 'code' : 'recovery'));

  const onSuccess = () => {
    void queryClient.invalidateQueries({ queryKey: securityStatusQueryKey });
    onConfirmed();
  };
  const submit = useMutation({
    mutationFn: (value: string) => authApi.stepUp(answerOf(kind ?? 'code', value)),
    onSuccess,
  });
  const passkey = useMutation({
    mutationFn: async () =>
      authApi.stepUp({ passkey: await passkeyAssertion(await authApi.stepUpPasskeyOptions()) }),
    onMutate: () => submit.reset(),
    onSuccess,
  });

  /** What the contract's schema of the request refuses in what was typed, before it is sent (null: nothing). */
  const problemWith = (value: string) => {
    const checked = checkWith(stepUpRequestSchema, answerOf(kind ?? 'code', value));
    return checked.ok ? null : checked.problem;
  };

  const switchKind = () => {
    setChosen(kind === 'code' ? 'recovery' : 'code');
    submit.reset();
    passkey.reset();
  };

  return {
    status,
    kind,
    switchKind,
    problemWith,
    canSwitch: !!factors?.totp && factors.recoveryCodesLeft > 0,
    offersPasskey: !!factors?.stepUpRequired && factors.passkeys > 0,
    submit,
    passkey,
    error: submit.error ?? passkey.error,
    busy: submit.isPending || passkey.isPending,
  };
}

/** What was typed, as the call sends it (a passkey's answer goes its own way). */
function answerOf(
  kind: CodeKind,
  value: string,
): { password: string } | { code: string } | { recoveryCode: string } {
  if (kind === 'password') return { password: value };
  return kind === 'code' ? { code: value.trim() } : { recoveryCode: value.trim() };
}
