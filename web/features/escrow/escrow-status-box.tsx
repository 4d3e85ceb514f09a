import { Alert } from '../../components/ui/alert';
import { Card } from '../../components/ui/card';
import { ErrorRetry } from '../../components/ui/error-retry';
import { ShieldIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import type { DealSectionProps } from '../deals';
import { useEscrowStatus, useMilestones } from './escrow-api';
import { EscrowPaymentActions } from './escrow-payment-actions';
import { EscrowSides, EscrowStatusBadge } from './escrow-sides';
import { escrowViewOf } from './escrow-state';
import { ExpiryCountdown } from './expiry-countdown';
import { useEscrowPayment } from './use-escrow-payment';

/**
 * 'Escrow Payment Status' (spec §2, §4 Escrow): shown to the deal's participants once it has a
 * dealmaker. Each dealer pays their own half from their wallet; both halves lock the escrow until
 * completion, which releases it to the dealmaker. A dealer may take an unlocked half back.
 */
export function EscrowStatusBox({ deal, viewer }: DealSectionProps) {
  const visible = !!deal.dealmaker && viewer.isParticipant;
  const status = useEscrowStatus(deal.id, visible);
  const payment = useEscrowPayment(deal.id);
  // With an agreed plan the money moves milestone by milestone, in the Milestones section: the halves
  // here (of the whole budget) would name amounts no call takes.
  const milestones = useMilestones(deal.id, visible);
  const staged = (milestones.data?.milestones.length ?? 1) > 1;
  if (!visible) return null;

  const view = escrowViewOf(deal, status.data?.escrow ?? null, viewer.username);
  const expiresAt = status.data?.escrow?.expiresAt ?? status.data?.expiresAt ?? null;
  return (
    <Card className="overflow-hidden">
      <section aria-labelledby={`escrow-title-${deal.id}`}>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-6 py-4">
          <div className="flex items-center gap-3">
            <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
              <ShieldIcon size={20} />
            </span>
            <h2 id={`escrow-title-${deal.id}`} className="text-lg font-semibold text-slate-900">
              Escrow Payment Status
            </h2>
          </div>
          {status.data && <EscrowStatusBadge view={view} />}
        </div>
        <div className="space-y-4 px-6 py-5">
          {status.isPending ? (
            <div className="flex justify-center py-6 text-indigo-500">
              <Spinner label="Loading escrow status" />
            </div>
          ) : status.isError ? (
            <ErrorRetry detail={serverReason(status.error)} onRetry={status.refetch}>
              Failed to load the escrow status.
            </ErrorRetry>
          ) : (
            <>
              <div className="flex flex-wrap items-baseline justify-between gap-2 rounded-xl bg-slate-50 px-4 py-3">
                <span className="text-sm font-medium text-slate-600">Total escrow amount</span>
                <span className="text-xl font-bold text-slate-900 tabular-nums">
                  {formatMoney(view.total)}
                </span>
              </div>
              {staged ? (
                <p className="text-sm text-slate-600">
                  This deal is paid in milestones: each dealer pays their share of each milestone, and each is
                  released on its own, in the Milestones section below.
                </p>
              ) : (
                <>
                  <EscrowSides view={view} creator={deal.dealer_creator} counterpart={deal.dealer_joined} />
                  {view.status === 'pending' && expiresAt && <ExpiryCountdown expiresAt={expiresAt} />}
                  {view.notice && <Alert variant="success">{view.notice}</Alert>}
                  {view.payBlockedReason && <Alert variant="info">{view.payBlockedReason}</Alert>}
                  {!view.notice && view.mySide === null && (
                    <p className="text-sm text-slate-500">
                      Each dealer pays half of the budget into escrow; it is released to you when both mark
                      the deal as finished.
                    </p>
                  )}
                  <EscrowPaymentActions deal={deal} view={view} payment={payment} />
                </>
              )}
            </>
          )}
        </div>
      </section>
    </Card>
  );
}
