import { useId } from 'react';
import type { Deal } from '../../../contract/deals';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ClockIcon, ShieldIcon, UserIcon, UsersIcon } from '../../components/ui/icons';
import { formatMoney } from '../../lib/money';
import { dealTexts, failure, type ShowFlash, success } from './deal-flash';
import { useDeleteDealWithFlash, useLeaveDealWithFlash } from './deal-membership-actions';
import { type DealCardAction, dealCardActions } from './deal-rules';
import { useDeleteBid, useJoinDeal } from './deals-api';
import { UserProfileLink } from './user-profile-link';

type DealCardProps = {
  deal: Deal;
  viewer: string;
  onFlash: ShowFlash;
  /** Opens the bid dialog: a new bid, or a change of the viewer's bid. */
  onBid: (deal: Deal) => void;
};

/** A deal in the Deals page grid, with the actions its viewer may take (spec §2 Deals page). */
export function DealCard({ deal, viewer, onFlash, onBid }: DealCardProps) {
  const titleId = useId();
  const actions = dealCardActions(deal, viewer);

  return (
    <li className="flex">
      <article
        aria-labelledby={titleId}
        className="flex w-full flex-col rounded-2xl border border-slate-200/80 bg-white p-5 shadow-sm transition hover:shadow-md"
      >
        <div className="flex items-start justify-between gap-3">
          <h2 id={titleId} className="min-w-0 font-semibold break-words text-slate-900">
            {deal.title}
          </h2>
          <DealStatusBadge deal={deal} />
        </div>
        <p className="mt-2 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-600">
          {deal.description}
        </p>

        <dl className="mt-4 grid grid-cols-2 gap-3 rounded-xl bg-slate-50 px-4 py-3 text-sm">
          <div className="min-w-0">
            <dt className="text-xs font-medium text-slate-500">Budget</dt>
            <dd className="font-semibold text-slate-900">{formatMoney(deal.budget)}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs font-medium text-slate-500">Timeline</dt>
            <dd className="flex items-center gap-1.5 text-slate-800">
              <ClockIcon size={14} className="shrink-0 text-slate-400" />
              <span className="truncate" title={deal.timeline}>
                {deal.timeline}
              </span>
            </dd>
          </div>
        </dl>

        <dl className="mt-4 flex-1 space-y-1.5 text-sm">
          <div className="flex items-center gap-2">
            <dt className="flex shrink-0 items-center gap-2 text-slate-500">
              <UserIcon size={16} className="shrink-0 text-slate-400" />
              Creator:
            </dt>
            <dd className="min-w-0 truncate">
              <UserProfileLink username={deal.dealer_creator} />
            </dd>
          </div>
          <div className="flex items-center gap-2">
            <dt className="flex shrink-0 items-center gap-2 text-slate-500">
              <UsersIcon size={16} className="shrink-0 text-slate-400" />
              Joined:
            </dt>
            <dd className="min-w-0 truncate">
              {deal.dealer_joined ? (
                <UserProfileLink username={deal.dealer_joined} />
              ) : (
                <span className="text-slate-400 italic">No one has joined yet</span>
              )}
            </dd>
          </div>
          {deal.dealmaker && (
            <div className="flex items-center gap-2">
              <dt className="flex shrink-0 items-center gap-2 text-slate-500">
                <ShieldIcon size={16} className="shrink-0 text-slate-400" />
                Dealmaker:
              </dt>
              <dd className="min-w-0 truncate">
                <UserProfileLink username={deal.dealmaker} />
              </dd>
            </div>
          )}
        </dl>

        {deal.my_bid && (
          <p className="mt-4 rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-800">
            Your bid: <span className="font-semibold">{formatMoney(deal.my_bid.price)}</span>
          </p>
        )}

        {actions.length > 0 && (
          <div className="mt-5 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
            <DealCardActions deal={deal} actions={actions} onFlash={onFlash} onBid={onBid} />
          </div>
        )}
      </article>
    </li>
  );
}

function DealStatusBadge({ deal }: { deal: Deal }) {
  if (deal.is_completed) return <Badge tone="green">Completed</Badge>;
  if (deal.dealmaker) return <Badge tone="indigo">Finalized</Badge>;
  if (!deal.dealer_joined) return <Badge tone="blue">Open</Badge>;
  return <Badge tone="amber">Seeking dealmaker</Badge>;
}

function DealCardActions({
  deal,
  actions,
  onFlash,
  onBid,
}: {
  deal: Deal;
  actions: DealCardAction[];
  onFlash: ShowFlash;
  onBid: (deal: Deal) => void;
}) {
  // The messages go through the hooks' own callbacks: a deleted deal's card is gone when the answer arrives.
  const join = useJoinDeal({
    onSuccess: () => onFlash(success(dealTexts.joined)),
    onError: (error) => onFlash(failure(dealTexts.joinFailed, error)),
  });
  const leave = useLeaveDealWithFlash(onFlash);
  const remove = useDeleteDealWithFlash(onFlash);
  const deleteBid = useDeleteBid({
    onSuccess: () => onFlash(success(dealTexts.bidDeleted)),
    onError: (error) => onFlash(failure(dealTexts.bidDeleteFailed, error)),
  });
  const busy = join.isPending || leave.isPending || remove.isPending || deleteBid.isPending;

  return actions.map((action) => {
    switch (action) {
      case 'delete':
        return (
          <Button
            key={action}
            variant="danger"
            size="sm"
            loading={remove.isPending}
            disabled={busy}
            onClick={() => remove.mutate(deal.id)}
          >
            Delete Deal
          </Button>
        );
      case 'delete-protected':
        return <ProtectedNote key={action}>Deal is protected - escrow payment made</ProtectedNote>;
      case 'leave':
        return (
          <Button
            key={action}
            variant="outline"
            size="sm"
            loading={leave.isPending}
            disabled={busy}
            onClick={() => leave.mutate(deal.id)}
          >
            Leave Deal
          </Button>
        );
      case 'leave-protected':
        return <ProtectedNote key={action}>Cannot leave - escrow payment made</ProtectedNote>;
      case 'join':
        return (
          <Button
            key={action}
            size="sm"
            loading={join.isPending}
            disabled={busy}
            onClick={() => join.mutate(deal.id)}
          >
            Join Deal
          </Button>
        );
      case 'bid':
        return (
          <Button key={action} variant="outline" size="sm" disabled={busy} onClick={() => onBid(deal)}>
            Bid as Dealmaker
          </Button>
        );
      case 'update-bid':
        return (
          <Button key={action} variant="outline" size="sm" disabled={busy} onClick={() => onBid(deal)}>
            Update Bid
          </Button>
        );
      case 'delete-bid':
        return (
          <Button
            key={action}
            variant="ghost"
            size="sm"
            className="text-rose-700 hover:bg-rose-50"
            loading={deleteBid.isPending}
            disabled={busy}
            onClick={() => {
              if (!deal.my_bid) return;
              deleteBid.mutate({ bidId: deal.my_bid.id, dealId: deal.id });
            }}
          >
            Delete Bid
          </Button>
        );
      default:
        return null;
    }
  });
}

export function ProtectedNote({ children }: { children: string }) {
  return (
    <p className="inline-flex items-center gap-1.5 rounded-lg bg-emerald-50 px-3 py-1.5 text-sm font-medium text-emerald-800">
      <ShieldIcon size={16} className="shrink-0" />
      {children}
    </p>
  );
}
