import { type QueryClient, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Wallet,
  WalletMovementResponse,
  WalletTransaction,
  WalletTransactionType,
} from '../../../contract/wallet';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';

export const walletKeys = {
  /** Everything about the signed-in user's wallet. */
  all: ['wallet'] as const,
  /** GET /wallet: balance and totals. */
  summary: () => ['wallet', 'summary'] as const,
  /** GET /wallet/transactions, page after page (every type; one key per filter below it). */
  transactions: () => ['wallet', 'transactions'] as const,
  /** The history filtered to one type ('' = every type). */
  transactionsOfType: (type: WalletTransactionType | '') => ['wallet', 'transactions', type] as const,
};

export const transactionsPageSize = 20;

/** The whole history (or one type of it) as a CSV download; the auth_token cookie signs the request. */
export const transactionsCsvUrl = (type: WalletTransactionType | '') =>
  `/api/wallet/transactions.csv${type ? `?type=${type}` : ''}`;

export const useWallet = () =>
  useQuery({
    queryKey: walletKeys.summary(),
    queryFn: ({ signal }) => api.get<Wallet>('/wallet', { signal }),
  });

/**
 * The Transaction History, newest first, maybe of one type only; each further page holds the rows
 * older than the last one shown.
 */
export const useWalletTransactions = (type: WalletTransactionType | '' = '') =>
  useInfiniteQuery({
    queryKey: walletKeys.transactionsOfType(type),
    queryFn: ({ pageParam, signal }) =>
      api.get<WalletTransaction[]>(
        `/wallet/transactions?limit=${transactionsPageSize}${pageParam ? `&before=${pageParam}` : ''}${type ? `&type=${type}` : ''}`,
        { signal },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length === transactionsPageSize ? lastPage[lastPage.length - 1]?.id : undefined,
  });

/** After money moved (here or by an escrow payment): the new balance and totals at once, the history from the server. */
export function applyWallet(queryClient: QueryClient, wallet: Wallet) {
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
