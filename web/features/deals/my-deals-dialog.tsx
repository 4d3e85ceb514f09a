import { type ReactNode, useId } from 'react';
import { useNavigate } from 'react-router';
import type { Deal } from '../../../contract/deals';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { BriefcaseIcon, ShieldIcon } from '../../components/ui/icons';
import { QueryDialog } from '../../components/ui/query-dialog';
import { formatMoney } from '../../lib/money';
import { useDealsFeed } from '../../lib/socket-context';
import { formatDate } from '../../lib/time';
import { useTimedMessage } from '../../lib/use-timed-message';
import { deleteDealConfirmation, leaveDealConfirmation } from './deal-confirmations';
import { type Flash, FlashStrip, flashDurationMs, type ShowFlash } from './deal-flash';
import { useDeleteDealWithFlash, useLeaveDealWithFlash } from './deal-membership-actions';
import { dealRoleOf } from './deal-viewer';
import { useMyDeals } from './deals-api';

export type MyDealsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  viewer: string;
  /** Beside each deal's badges (the page puts the viewer's unread messages there). */
  dealNote?: (deal: Deal) => ReactNode;
};

/**
 * The deals the viewer created or joined, each with View and Delete Deal or Leave Deal. Its flash strip
 * shows only what was done in it: the page's earlier messages (a bid placed on a card) stay outside.
 */
export function MyDealsDialog({ open, onOpenChange, viewer, dealNote }: MyDealsDialogProps) {
  const deals = useMyDeals(open);
  useDealsFeed(open);
  const [flash, showFlash] = useTimedMessage<Flash>(flashDurationMs);

  return (
    <QueryDialog
      open={open}
      onOpenChange={(next) => {
        showFlash(null);
        onOpenChange(next);
      }}
      title="My Deals"
      description="Deals you created or joined as a dealer."
      actions={<FlashStrip flash={flash} />}
      query={deals}
      loadingLabel="Loading your deals..."
      errorText="Failed to load your deals."
      retry={false}
      empty={
        deals.data?.length === 0 && (
          <EmptyState
            icon={<BriefcaseIcon size={28} />}
            title="No deals yet"
            description="Deals you create or join will appear here."
            className="py-10"
          />
        )
      }
    >
      <ul className="space-y-3">
        {deals.data?.map((deal) => (
          <MyDealRow key={deal.id} deal={deal} viewer={viewer} onFlash={showFlash} note={dealNote?.(deal)} />
        ))}
      </ul>
    </QueryDialog>
  );
}

function MyDealRow({
  deal,
  viewer,
  onFlash,
  note,
}: {
  deal: Deal;
  viewer: string;
  onFlash: ShowFlash;
  note?: ReactNode;
}) {
  const navigate = useNavigate();
  const titleId = useId();
  const role = dealRoleOf(deal, viewer);
  const leave = useLeaveDealWithFlash(onFlash);
  const remove = useDeleteDealWithFlash(onFlash);
  const busy = leave.isPending || remove.isPending;
  const confirmation = useConfirmation();
  // The creator may delete the deal and the counterpart leave it, until an escrow half is paid.
  const membership =
    role === 'creator'
      ? {
          call: remove,
          confirm: deleteDealConfirmation,
          label: 'Delete Deal',
          variant: 'danger' as const,
          protectedText: 'Protected - Cannot delete',
        }
      : role === 'counterpart'
        ? {
            call: leave,
            confirm: leaveDealConfirmation,
            label: 'Leave Deal',
            variant: 'outline' as const,
            protectedText: 'Protected - Cannot leave',
          }
        : null;

  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between"
      >
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={titleId} className="font-semibold break-words text-slate-900">
              {deal.title}
            </h3>
            {role === 'creator' && <Badge tone="indigo">Creator</Badge>}
            {role === 'counterpart' && <Badge tone="blue">Counterpart</Badge>}
            {deal.is_completed && <Badge tone="green">Completed</Badge>}
            {deal.escrow_paid && (
              <Badge tone="green">
                <ShieldIcon size={12} />
                Protected (Escrow paid)
              </Badge>
            )}
            {note}
          </div>
          <p className="text-sm text-slate-500">
            {formatMoney(deal.budget)} · {deal.timeline} · created {formatDate(deal.createdAt)}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <Button variant="outline" size="sm" onClick={() => navigate(`/deals/${deal.id}`)}>
            View
          </Button>
          {membership &&
            (deal.escrow_paid ? (
              <span className="text-sm font-medium text-emerald-700">{membership.protectedText}</span>
            ) : (
              <Button
                variant={membership.variant}
                size="sm"
                loading={membership.call.isPending}
                disabled={busy}
                onClick={() =>
                  confirmation.ask(
                    membership.confirm(deal, { onConfirm: () => membership.call.mutateSettled(deal.id) }),
                  )
                }
              >
                {membership.label}
              </Button>
            ))}
          {confirmation.dialog}
        </div>
      </article>
    </li>
  );
}
