import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dispute } from '../../../contract/disputes';
import { formatCents } from '../../../contract/money';
import type { AuditEntry, LedgerCheck, OperatorDispute } from '../../../contract/operator';
import type { TimelineItem } from '../../../contract/timeline';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';

/** The operators' calls (/admin/…): every one answers 403 to anyone else. */
export const operatorKeys = {
  all: ['operator'] as const,
  queue: () => ['operator', 'queue'] as const,
  ledger: () => ['operator', 'ledger'] as const,
  audit: (filters: AuditFilters) => ['operator', 'audit', filters] as const,
  evidence: (dealId: number) => ['operator', 'evidence', dealId] as const,
};

/** GET /admin/disputes?escalated=true: the open disputes waiting for an operator, newest first. */
export const useEscalatedDisputes = () =>
  useQuery({
    queryKey: operatorKeys.queue(),
    queryFn: ({ signal }) =>
      api.get<{ disputes: OperatorDispute[] }>('/admin/disputes?escalated=true', { signal }),
    select: (answer) => answer.disputes,
  });

export type OperatorSettleInput = { disputeId: number; toDealmakerCents: number; resolution: string };

/** POST /admin/disputes/{id}/settle: pays the locked escrow out as decided and resolves the dispute. */
export function useOperatorSettle(callbacks?: MutationCallbacks<Dispute, OperatorSettleInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: ({ disputeId, toDealmakerCents, resolution }: OperatorSettleInput) =>
        api.post<Dispute>(`/admin/disputes/${disputeId}/settle`, {
          toDealmaker: formatCents(toDealmakerCents),
          resolution,
        }),
      // The queue loses the dispute, the ledger and the audit log gain the payout.
      onSettled: () => queryClient.invalidateQueries({ queryKey: operatorKeys.all }),
    },
    callbacks,
  );
}

export const evidencePageSize = 25;

/**
 * GET /admin/deals/{id}/timeline: the deal's messages and timeline, newest first, page after page, only
 * while `enabled` (the dialog is open). Every page the server sends is written to the audit log, so
 * nothing is fetched behind the operator's back (no refetch on focus).
 */
export const useDealEvidence = (dealId: number, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: operatorKeys.evidence(dealId),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(evidencePageSize) });
      if (pageParam) query.set('before', String(pageParam));
      return api.get<{ items: TimelineItem[] }>(`/admin/deals/${dealId}/timeline?${query}`, { signal });
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.items.length === evidencePageSize ? lastPage.items.at(-1)?.id : undefined,
    enabled,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** GET /admin/ledger/check: run when the console opens and on 'Run again' only (each run is audited). */
export const useLedgerCheck = () =>
  useQuery({
    queryKey: operatorKeys.ledger(),
    queryFn: ({ signal }) => api.get<LedgerCheck>('/admin/ledger/check', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

/** The audit log's filters, as typed ('' = any). */
export type AuditFilters = { dealId: string; username: string };

export const auditPageSize = 25;

/** The audit log, newest first, page after page (each page older than the last entry shown). */
export const useAuditLog = (filters: AuditFilters) =>
  useInfiniteQuery({
    queryKey: operatorKeys.audit(filters),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(auditPageSize) });
      if (pageParam) query.set('before', String(pageParam));
      if (filters.dealId) query.set('dealId', filters.dealId);
      if (filters.username) query.set('username', filters.username);
      return api.get<{ entries: AuditEntry[] }>(`/admin/audit?${query}`, { signal });
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.entries.length === auditPageSize ? lastPage.entries.at(-1)?.id : undefined,
  });
