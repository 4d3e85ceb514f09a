import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { meResponseSchema } from '../../../contract/auth';
import { api } from '../../lib/api';
import { useAfterFirstPage } from '../../lib/first-page-shown';
import { useAuth } from './auth-context';

type Me = z.infer<typeof meResponseSchema>;

/**
 * Whether the signed-in user is an operator (GET /auth/me; granted only by a command on the server), and
 * whether they have the second factor the console needs: false while unknown, `isPending` says whether
 * it is still being asked.
 */
export function useOperator(): { isOperator: boolean; secondFactor: boolean; isPending: boolean } {
  const { user, isAuthenticated } = useAuth();
  // Asked once the first page is shown: that page's own data comes first.
  const afterFirstPage = useAfterFirstPage();
  const me = useQuery({
    queryKey: ['auth-me', user?.id] as const,
    queryFn: ({ signal }) => api.get<Me>('/auth/me', { signal }),
    enabled: isAuthenticated && afterFirstPage,
  });
  return {
    isOperator: me.data?.isOperator === true,
    secondFactor: me.data?.secondFactor === true,
    isPending: isAuthenticated && me.isPending,
  };
}
