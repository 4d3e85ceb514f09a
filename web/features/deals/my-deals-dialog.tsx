import { useId } from 'react';
import { useNavigate } from 'react-router';
import type { Deal } from '../../../contract/deals';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { BriefcaseIcon, ShieldIcon } from '../../components/ui/icons';
import { LoadingState } from '../../components/ui/spinner';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/time';
import { type Flash, FlashStrip, type ShowFlash } from './deal-flash';
import { useDeleteDealWithFlash, useLeaveDealWithFlash } from './deal-membership-actions';
import { dealRoleOf } from './deal-rules';
import { useMyDeals } from './deals-api';

type MyDealsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  viewer: string;
  /** The page's flash message, shown here while the dialog covers the page. */
  flash: Flash | null;
  onFlash: ShowFlash;
};

/** The deals the viewer created or joined, each with View and Delete Deal or Leave Deal. */
export function MyDealsDialog({ open, onOpenChange, viewer, flash, onFlash }: MyDealsDialogProps) {
  const deals = useMyDeals(open);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="My Deals"
      description="Deals you created or joined as a dealer."
      size="xl"
    >
      <FlashStrip flash={flash} className="mb-4" />
      {deals.isPending ? (
        <LoadingState label="Loading your deals..." className="py-10" />
      ) : deals.isError ? (
        <Alert variant="error">Failed to load your deals.</Alert>
      ) : deals.data.length === 0 ? (
        <EmptyState
          icon={<BriefcaseIcon size={28} />}
          title="No deals yet"
          description="Deals you create or join will appear here."
          className="py-10"
        />
      ) : (
        <ul className="space-y-3">
          {deals.data.map((deal) => (
            <MyDealRow key={deal.id} deal={deal} viewer={viewer} onFlash={onFlash} />
          ))}
        </ul>
      )}
    </Dialog>
  );
}

function MyDealRow({ deal, viewer, onFlash }: { deal: Deal; viewer: string; onFlash: ShowFlash }) {
  const navigate = useNavigate();
  const titleId = useId();
  const role = dealRoleOf(deal, viewer);
  const leave = useLeaveDealWithFlash(onFlash);
  const remove = useDeleteDealWithFlash(onFlash);
  const busy = leave.isPending || remove.isPending;

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
          </div>
          <p className="text-sm text-slate-500">
            {formatMoney(deal.budget)} · {deal.timeline} · created {formatDate(deal.createdAt)}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <Button variant="outline" size="sm" onClick={() => navigate(`/deals/${deal.id}`)}>
            View
          </Button>
          {role === 'creator' &&
            (deal.escrow_paid ? (
              <span className="text-sm font-medium text-emerald-700">Protected - Cannot delete</span>
            ) : (
              <Button
                variant="danger"
                size="sm"
                loading={remove.isPending}
                disabled={busy}
                onClick={() => remove.mutate(deal.id)}
              >
                Delete Deal
              </Button>
            ))}
          {role === 'counterpart' &&
            (deal.escrow_paid ? (
              <span className="text-sm font-medium text-emerald-700">Protected - Cannot leave</span>
            ) : (
              <Button
                variant="outline"
                size="sm"
                loading={leave.isPending}
                disabled={busy}
                onClick={() => leave.mutate(deal.id)}
              >
                Leave Deal
              </Button>
            ))}
        </div>
      </article>
    </li>
  );
}
