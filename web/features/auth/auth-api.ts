import { useMutation, useQuery } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse, RegisterRequest } from '../../../contract/auth';
import type { SecurityStatus, TwoFactorChallenge } from '../../../contract/security';
import type { User } from '../../../contract/users';
import { api, segment } from '../../lib/api';
import type { PasskeyOptions } from '../../lib/passkeys';

/** The signed-in user's full record (GET /user-profile); profile screens update the same cache entry. */
export const currentUserQueryKey = ['user-profile'] as const;

export const fetchCurrentUser = () => api.get<User>('/user-profile');

/** What protects the account (GET /auth/2fa); the Security section and the step-up dialog read it. */
export const securityStatusQueryKey = ['security', 'status'] as const;
export const fetchSecurityStatus = (signal?: AbortSignal) => api.get<SecurityStatus>('/auth/2fa', { signal });

type MessageAnswer = { message?: string };
type ResetRequestAnswer = { success: boolean; message?: string };

/** The second step of a sign-in: the challenge with one of a code, a recovery code or a passkey assertion. */
export type SecondStepAnswer = { code: string } | { recoveryCode: string } | { passkey: unknown };
/** What confirms it is you before a money or account change: a factor, or the password of an account without one. */
export type StepUpAnswer = SecondStepAnswer | { password: string };

export const authApi = {
  /** The spec's answer, or (for an account with a second factor) a challenge to finish with `loginSecondStep`. */
  login: (body: LoginRequest) => api.post<LoginResponse | TwoFactorChallenge>('/auth/login', body),
  loginSecondStep: (challenge: string, answer: SecondStepAnswer) =>
    api.post<LoginResponse>('/auth/login/2fa', { challenge, ...answer }),
  passkeySignInOptions: () => api.post<PasskeyOptions>('/auth/passkeys/login/options'),
  passkeySignIn: (response: unknown) => api.post<LoginResponse>('/auth/passkeys/login/verify', { response }),
  /** Ends this session on the server (its token stops working everywhere). */
  logout: (signal?: AbortSignal) => api.post<MessageAnswer>('/auth/logout', undefined, { signal }),
  resendVerification: (email: string) => api.post<MessageAnswer>('/auth/register/resend', { email }),
  securityStatus: (signal?: AbortSignal) => fetchSecurityStatus(signal),
  stepUp: (answer: StepUpAnswer) => api.post<{ freshUntil: string }>('/auth/step-up', answer),
  stepUpPasskeyOptions: () => api.post<PasskeyOptions>('/auth/step-up/passkey-options'),
  register: (body: RegisterRequest) => api.post<MessageAnswer>('/auth/register', body),
  verifyEmail: (key: string) => api.get<MessageAnswer>(`/auth/register/${segment(key)}`),
  requestPasswordReset: (email: string) => api.post<ResetRequestAnswer>('/auth/reset_password', { email }),
  resetPassword: (username: string, token: string, newPassword: string) =>
    api.post<ResetRequestAnswer>(`/auth/reset_password/${segment(username)}/${segment(token)}`, {
      newPassword,
    }),
};

export const useRegister = () => useMutation({ mutationFn: authApi.register });

export const useResendVerification = () => useMutation({ mutationFn: authApi.resendVerification });

export const useRequestPasswordReset = () => useMutation({ mutationFn: authApi.requestPasswordReset });

export const useResetPassword = () =>
  useMutation({
    mutationFn: (input: { username: string; token: string; newPassword: string }) =>
      authApi.resetPassword(input.username, input.token, input.newPassword),
  });

/**
 * Verifies an email once per key: a query (not an effect) so that a second render, or React's
 * development double-mount, does not send the one-time verification twice.
 */
export const useVerifyEmail = (key: string | undefined) =>
  useQuery({
    queryKey: ['verify-email', key],
    queryFn: () => authApi.verifyEmail(key!),
    enabled: !!key,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
