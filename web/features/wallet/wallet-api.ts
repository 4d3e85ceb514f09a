import { type QueryClient, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Deal } from '../../../contract/deals';
import type {
  EscrowActionResponse,
  EscrowStatusResponse,
  Wallet,
  WalletMovementResponse,
  WalletTransaction,
} from '../../../contract/wallet';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { useAuth } from '../auth/auth-context';
import { dealQueryKeys, upsertDealInCaches } from '../deals/deals-cache';

export const walletKeys = {
  /** Everything about the signed-in user's wallet. */
  all: ['wallet'] as const,
  /** GET /wallet: balance and totals. */
  summary: () => ['wallet', 'summary'] as const,
  /** GET /wallet/transactions, page after page. */
  transactions: () => ['wallet', 'transactions'] as const,
};

/** GET /wallet/escrow/{dealId}: under the deal's key, so whatever reloads the deal reloads its escrow too. */
export const escrowQueryKey = (dealId: number) => [...dealQueryKeys.detail(dealId), 'escrow'] as const;

export const transactionsPageSize = 20;

export const useWallet = () =>
  useQuery({
    queryKey: walletKeys.summary(),
    queryFn: ({ signal }) => api.get<Wallet>('/wallet', { signal }),
  });

/** The Transaction History, newest first; each further page holds the rows older than the last one shown. */
export const useWalletTransactions = () =>
  useInfiniteQuery({
    queryKey: walletKeys.transactions(),
    queryFn: ({ pageParam, signal }) =>
      api.get<WalletTransaction[]>(
        `/wallet/transactions?limit=${transactionsPageSize}${pageParam ? `&before=${pageParam}` : ''}`,
        { signal },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length === transactionsPageSize ? lastPage[lastPage.length - 1]?.id : undefined,
  });

/** After money moved: the new balance and totals at once, the history from the server. */
function applyWallet(queryClient: QueryClient, wallet: Wallet) {
  queryClient.setQueryData(walletKeys.summary(), wallet);
  void queryClient.invalidateQueries({ queryKey: walletKeys.transactions() });
}

export type MovementKind = 'deposit' | 'withdraw';
export type MovementInput = { amount: number; idempotencyKey: string };

/** POST /wallet/deposit or /wallet/withdraw, with the action's Idempotency-Key. */
export function useWalletMovement(
  kind: MovementKind,
  callbacks?: MutationCallbacks<WalletMovementResponse, MovementInput>,
) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: ({ amount, idempotencyKey }: MovementInput) =>
        api.post<WalletMovementResponse>(
          `/wallet/${kind}`,
          { amount },
          { headers: { 'Idempotency-Key': idempotencyKey } },
        ),
      onSuccess: (answer) => applyWallet(queryClient, answer.wallet),
      // A refusal may mean the balance changed elsewhere (another tab, a payment): show the real one.
      onError: () => queryClient.invalidateQueries({ queryKey: walletKeys.summary() }),
    },
    callbacks,
  );
}

/** The escrow of a deal, for its participants, once it has a dealmaker. */
export const useEscrowStatus = (dealId: number, enabled: boolean) =>
  useQuery({
    queryKey: escrowQueryKey(dealId),
    queryFn: ({ signal }) => api.get<EscrowStatusResponse>(`/wallet/escrow/${dealId}`, { signal }),
    enabled,
  });

/** Reloads a deal and puts it into every cached copy (its escrow_paid protects it on the Deals page). */
export function useRefreshDeal() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return async (dealId: number) => {
    try {
      const deal = await api.get<Deal>(`/deals/${dealId}`);
      upsertDealInCaches(queryClient, deal, { source: 'viewer', viewer: user?.username ?? null });
    } catch (error) {
      console.error('Reloading the deal failed', error);
      void queryClient.invalidateQueries({ queryKey: dealQueryKeys.detail(dealId) });
    }
  };
}

export type EscrowAction = 'lock' | 'refund';
export type EscrowActionInput = { dealId: number; action: EscrowAction; idempotencyKey: string };

/** POST /wallet/escrow/{dealId}/lock (pay my half) or /refund (take it back), with an Idempotency-Key. */
export function useEscrowAction(callbacks?: MutationCallbacks<EscrowActionResponse, EscrowActionInput>) {
  const queryClient = useQueryClient();
  const refreshDeal = useRefreshDeal();
  return useGuardedMutation(
    {
      mutationFn: ({ dealId, action, idempotencyKey }: EscrowActionInput) =>
        api.post<EscrowActionResponse>(`/wallet/escrow/${dealId}/${action}`, undefined, {
          headers: { 'Idempotency-Key': idempotencyKey },
        }),
      onSuccess: (answer, { dealId }) => {
        queryClient.setQueryData<EscrowStatusResponse>(escrowQueryKey(dealId), (status) =>
          status ? { ...status, escrowExists: true, escrow: answer.escrow } : status,
        );
        applyWallet(queryClient, answer.wallet);
      },
      onSettled: async (_answer, _error, { dealId }) => {
        // Paid or not, the deal and its escrow may have moved on (the other dealer, another tab).
        await refreshDeal(dealId);
        await queryClient.invalidateQueries({ queryKey: escrowQueryKey(dealId) });
      },
    },
    callbacks,
  );
}
