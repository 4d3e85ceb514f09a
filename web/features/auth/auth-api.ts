import { useMutation, useQuery } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse, RegisterRequest } from '../../../contract/auth';
import type { User } from '../../../contract/users';
import { api, segment } from '../../lib/api';

/** The signed-in user's full record (GET /user-profile); profile screens update the same cache entry. */
export const currentUserQueryKey = ['user-profile'] as const;

export const fetchCurrentUser = () => api.get<User>('/user-profile');

type MessageAnswer = { message?: string };
type ResetRequestAnswer = { success: boolean; message?: string };

export const authApi = {
  login: (body: LoginRequest) => api.post<LoginResponse>('/auth/login', body),
  register: (body: RegisterRequest) => api.post<MessageAnswer>('/auth/register', body),
  verifyEmail: (key: string) => api.get<MessageAnswer>(`/auth/register/${segment(key)}`),
  requestPasswordReset: (email: string) => api.post<ResetRequestAnswer>('/auth/reset_password', { email }),
  resetPassword: (username: string, token: string, newPassword: string) =>
    api.post<ResetRequestAnswer>(`/auth/reset_password/${segment(username)}/${segment(token)}`, {
      newPassword,
    }),
};

export const useRegister = () => useMutation({ mutationFn: authApi.register });

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
