import { useId } from 'react';
import { Link } from 'react-router';
import type { MyBid } from '../../../contract/discovery';
import { Badge } from '../../components/ui/badge';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadFailedCard } from '../../components/ui/error-retry';
import { HandshakeIcon } from '../../components/ui/icons';
import { LoadMore } from '../../components/ui/load-more';
import { LoadingState } from '../../components/ui/spinner';
import { formatMoney } from '../../lib/money';
import { useDealsFeed } from '../../lib/socket-context';
import { formatDateTime } from '../../lib/time';
import { deliveryText, stageLabels } from '../deals';
import { myBidDealLink, outcomeBadges, selectionText } from './my-bid-texts';
import { useMyBids } from './my-bids-api';

/**
 * The viewer's bids, newest first: each with its deal (a link, unless the deal was deleted), the price,
 * who selected it and what became of it. Kept live by the realtime layer (an event about one of these
 * deals asks again).
 */
export function MyBidsList() {
  const bids = useMyBids();
  useDealsFeed();
  const list = bids.data?.pages.flat();

  if (bids.isPending) return <LoadingState label="Loading your bids..." />;
  if (bids.isError && !list) {
    return (
      <LoadFailedCard
        title="Failed to load your bids."
        icon={<HandshakeIcon size={28} />}
        onRetry={bids.refetch}
      />
    );
  }
  if (!list || list.length === 0) {
    return (
      <EmptyState
        framed="page"
        icon={<HandshakeIcon size={28} />}
        title="No bids yet"
        description="Bid on a deal to become its dealmaker: your bids and what became of them show here."
      />
    );
  }
  return (
    <>
      <ul className="space-y-4">
        {list.map((bid) => (
          <MyBidItem key={bid.id} bid={bid} />
        ))}
      </ul>
      <LoadMore query={bids} className="mt-8" errorText="Failed to load more bids." errorClassName="mt-6" />
    </>
  );
}

function MyBidItem({ bid }: { bid: MyBid }) {
  const titleId = useId();
  const outcome = outcomeBadges[bid.outcome];
  const link = myBidDealLink(bid);
  return (
    <li>
      <article
        aria-labelledby={titleId}
        data-my-bid-id={bid.id}
        className="rounded-2xl border border-slate-200/80 bg-white p-5 shadow-sm"
      >
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id={titleId} className="min-w-0 font-semibold break-words text-slate-900">
            {link ? (
              <Link
                to={link}
                className="rounded hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
              >
                {bid.deal.title}
              </Link>
            ) : (
              bid.deal.title
            )}
          </h2>
          <Badge tone={outcome.tone}>
            <span className="sr-only">Outcome: </span>
            <span data-outcome>{outcome.label}</span>
          </Badge>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-3 rounded-xl bg-slate-50 px-4 py-3 text-sm sm:grid-cols-4">
          <div className="min-w-0">
            <dt className="text-xs font-medium text-slate-500">Your bid</dt>
            <dd className="font-semibold text-slate-900">{formatMoney(bid.price)}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs font-medium text-slate-500">Deal budget</dt>
            <dd className="text-slate-800">{formatMoney(bid.deal.budget)}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs font-medium text-slate-500">Selection</dt>
            <dd className="text-slate-800" data-selection-state>
              {selectionText(bid)}
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs font-medium text-slate-500">Deal status</dt>
            <dd className="text-slate-800">{stageLabels[bid.deal.status]}</dd>
          </div>
        </dl>
        {bid.proposal && (
          <p className="mt-3 text-sm break-words whitespace-pre-line text-slate-700">{bid.proposal}</p>
        )}
        <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
          <span>Placed {formatDateTime(bid.createdAt)}</span>
          {bid.deliveryDays != null && <span>{deliveryText(bid.deliveryDays)}</span>}
        </p>
      </article>
    </li>
  );
}
