import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DealListItem } from '../../../contract/discovery';
import { buttonClasses } from '../../components/ui/button';
import { ArrowRightIcon, ClockIcon, ShieldIcon, UserIcon, UsersIcon } from '../../components/ui/icons';
import { formatMoney } from '../../lib/money';
import { dealCardActions } from './card-actions';
import { DealCardActions } from './deal-card-actions';
import type { OpenDealDialog } from './deal-dialogs';
import type { ShowFlash } from './deal-flash';
import { DealSnippet } from './deal-snippet';
import { DealStatusBadge } from './deal-status-badge';
import { DealTile } from './deal-tile';
import { dealViewerOf } from './deal-viewer';
import { UserProfileLink } from './user-profile-link';

type DealCardProps = {
  /** With `snippet` (a keyword search's result): the excerpt with its matched words shows instead of the description. */
  deal: DealListItem;
  viewer: string;
  onFlash: ShowFlash;
  /** Opens the page's dialog for a button: a bid (new or changed), Edit Deal, Ask to Join. */
  onOpen: OpenDealDialog;
  /** Beside the status badge (the page puts the viewer's unread messages there). */
  note?: ReactNode;
};

/** A deal in the Deals page grid, with the actions its viewer may take (spec §2 Deals page). */
export function DealCard({ deal, viewer, onFlash, onOpen, note }: DealCardProps) {
  const actions = dealCardActions(deal, dealViewerOf(deal, viewer));

  return (
    <DealTile
      title={deal.title}
      href={`/deals/${deal.id}`}
      badge={<DealStatusBadge deal={deal} />}
      note={note}
    >
      {deal.snippet && deal.snippet.length > 0 ? (
        <DealSnippet parts={deal.snippet} className="mt-2 line-clamp-3 text-sm text-slate-600" />
      ) : (
        <p className="mt-2 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-600">
          {deal.description}
        </p>
      )}

      <dl className="mt-4 grid grid-cols-2 gap-3 rounded-xl bg-slate-50 px-4 py-3 text-sm">
        <div className="min-w-0">
          <dt className="text-xs font-medium text-slate-500">Budget</dt>
          <dd className="font-semibold text-slate-900">{formatMoney(deal.budget)}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium text-slate-500">Timeline</dt>
          <dd className="flex items-center gap-1.5 text-slate-800">
            <ClockIcon size={14} className="shrink-0 text-slate-500" />
            <span className="truncate" title={deal.timeline}>
              {deal.timeline}
            </span>
          </dd>
        </div>
      </dl>

      <dl className="mt-4 flex-1 space-y-1.5 text-sm">
        <PersonRow icon={UserIcon} label="Creator:">
          <UserProfileLink username={deal.dealer_creator} />
        </PersonRow>
        <PersonRow icon={UsersIcon} label="Joined:">
          {deal.dealer_joined ? (
            <UserProfileLink username={deal.dealer_joined} />
          ) : (
            <span className="text-slate-500 italic">No one has joined yet</span>
          )}
        </PersonRow>
        {deal.dealmaker && (
          <PersonRow icon={ShieldIcon} label="Dealmaker:">
            <UserProfileLink username={deal.dealmaker} />
          </PersonRow>
        )}
      </dl>

      {deal.my_bid && (
        <p className="mt-4 rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-800">
          Your bid: <span className="font-semibold">{formatMoney(deal.my_bid.price)}</span>
        </p>
      )}

      <div className="mt-5 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
        <DealCardActions deal={deal} actions={actions} onFlash={onFlash} onOpen={onOpen} />
        <Link
          to={`/deals/${deal.id}`}
          aria-label={`View deal: ${deal.title}`}
          className={buttonClasses({ variant: 'link', size: 'sm', className: 'ml-auto gap-1' })}
        >
          View Deal
          <ArrowRightIcon size={16} />
        </Link>
      </div>
    </DealTile>
  );
}

/** One of the deal's people: an icon and a label, then who it is. */
function PersonRow({
  icon: Icon,
  label,
  children,
}: {
  icon: (props: { size?: number; className?: string }) => ReactNode;
  label: string;
  children: ReactNode;
}) {
  return (
    <div className="flex items-center gap-2">
      <dt className="flex shrink-0 items-center gap-2 text-slate-500">
        <Icon size={16} className="shrink-0 text-slate-500" />
        {label}
      </dt>
      <dd className="min-w-0 truncate">{children}</dd>
    </div>
  );
}
