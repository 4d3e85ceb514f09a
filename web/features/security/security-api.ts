import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Passkey, Session } from '../../../contract/security';
import { api, segment } from '../../lib/api';
import { createPasskey, type PasskeyOptions } from '../../lib/passkeys';
import { currentUserQueryKey, fetchSecurityStatus, securityStatusQueryKey } from '../auth';

/** Everything the Security section shows is cached under 'security' (the status key is the auth feature's). */
export const securityKeys = {
  all: ['security'] as const,
  status: securityStatusQueryKey,
  passkeys: ['security', 'passkeys'] as const,
  sessions: ['security', 'sessions'] as const,
};

type MessageAnswer = { message: string };
type RecoveryCodesAnswer = { recoveryCodes: string[] };
export type TotpSetup = { secret: string; otpauthUrl: string; qrSvg: string };

export const useSecurityStatus = () =>
  useQuery({ queryKey: securityKeys.status, queryFn: ({ signal }) => fetchSecurityStatus(signal) });

/** A mutation after which what protects the account is read again (factors, recovery codes, freshness). */
function useSecurityMutation<Input, Answer>(
  mutationFn: (input: Input) => Promise<Answer>,
  refresh: ReadonlyArray<readonly string[]> = [securityKeys.status],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => {
      for (const queryKey of refresh) void queryClient.invalidateQueries({ queryKey });
    },
  });
}

// ── Authenticator app ──

/** A new secret to scan (not active yet). Needs a recent factor or password (the API client asks). */
export const useStartTotpSetup = () =>
  useMutation({ mutationFn: () => api.post<TotpSetup>('/auth/2fa/totp/setup') });

export const useConfirmTotp = () =>
  useSecurityMutation((code: string) =>
    api.post<RecoveryCodesAnswer>('/auth/2fa/totp/confirm', { code: code.trim() }),
  );

export const useDisableTotp = () =>
  useSecurityMutation((input: { password: string; code: string }) =>
    api.post<MessageAnswer>('/auth/2fa/totp/disable', { password: input.password, code: input.code.trim() }),
  );

export const useNewRecoveryCodes = () =>
  useSecurityMutation(() => api.post<RecoveryCodesAnswer>('/auth/2fa/recovery-codes'));

// ── Passkeys ──

export const usePasskeys = () =>
  useQuery({
    queryKey: securityKeys.passkeys,
    queryFn: ({ signal }) => api.get<Passkey[]>('/auth/passkeys', { signal }),
  });

/** The browser makes a passkey from the server's options; the server keeps it (and may give recovery codes). */
export const useAddPasskey = () =>
  useSecurityMutation(
    async (name: string) => {
      const options = await api.post<PasskeyOptions>('/auth/passkeys/register/options');
      const response = await createPasskey(options);
      return api.post<{ passkey: Passkey; recoveryCodes?: string[] }>('/auth/passkeys/register/verify', {
        response,
        ...(name.trim() ? { name: name.trim() } : {}),
      });
    },
    [securityKeys.status, securityKeys.passkeys],
  );

export const useRenamePasskey = () =>
  useSecurityMutation(
    (input: { id: number; name: string }) =>
      api.patch<Passkey>(`/auth/passkeys/${segment(input.id)}`, { name: input.name.trim() }),
    [securityKeys.passkeys],
  );

export const useRemovePasskey = () =>
  useSecurityMutation(
    (id: number) => api.delete<MessageAnswer>(`/auth/passkeys/${segment(id)}`),
    [securityKeys.status, securityKeys.passkeys],
  );

// ── Sessions ──

export const useSessions = () =>
  useQuery({
    queryKey: securityKeys.sessions,
    queryFn: ({ signal }) => api.get<Session[]>('/auth/sessions', { signal }),
  });

export const useEndSession = () =>
  useSecurityMutation(
    (id: string) => api.delete<MessageAnswer>(`/auth/sessions/${segment(id)}`),
    [securityKeys.sessions],
  );

export const useEndOtherSessions = () =>
  useSecurityMutation(
    () => api.post<{ ended: number }>('/auth/sessions/revoke-others'),
    [securityKeys.sessions],
  );

// ── Password and email ──

/** Every other session ends with it (this one stays signed in). */
export const useChangePassword = () =>
  useSecurityMutation(
    (input: { currentPassword: string; newPassword: string }) =>
      api.post<MessageAnswer>('/auth/password', input),
    [securityKeys.sessions],
  );

/** A link goes to the new address; the email changes once it is opened. */
export const useChangeEmail = () =>
  useMutation({
    mutationFn: (input: { newEmail: string; password: string }) =>
      api.post<MessageAnswer>('/auth/email', { newEmail: input.newEmail.trim(), password: input.password }),
  });

/**
 * The link mailed to the new address confirms the change, once per token: a query (not an effect), so
 * that a second render, or React's development double-mount, does not send the one-time call twice.
 */
export function useConfirmEmailChange(token: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['confirm-email', token],
    queryFn: async () => {
      const answer = await api.post<MessageAnswer>('/auth/email/confirm', { token });
      // Signed in here, the profile shows the new address.
      void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      return answer;
    },
    enabled: !!token,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
