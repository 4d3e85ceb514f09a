import { type FormEvent, useId, useState } from 'react';
import { type Bid, createBidSchema, type Deal, updateBidSchema } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import { centsToDollars } from '../../../contract/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextareaField, TextField } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { formatMoney, typedAmount } from '../../lib/money';
import { sameUser } from '../../lib/same-user';
import { useAuth } from '../auth';
import { useCreateBid, useDealBids, useUpdateBid } from './bids-api';
import { dealTexts, type ShowFlash, success } from './deal-flash';

type BidDialogProps = {
  /** The deal to bid on; the dialog is open while there is one. */
  deal: Deal | null;
  onClose: () => void;
  onFlash: ShowFlash;
};

/** The bid as typed: the price, and optionally a proposal and a delivery estimate in days. */
export type TypedBid = { price: string; proposal: string; deliveryDays: string };

/**
 * The delivery estimate as typed, for the contract's schema: null when left empty, a number when it is
 * one, else the text itself (which the schema refuses in its own words).
 */
export function typedDays(text: string): number | string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The bid modal: price, proposal and delivery estimate, titled Bid as Dealmaker for a new bid or Update
 * Bid for the viewer's own (whose proposal and estimate it shows to change).
 */
export function BidDialog({ deal, onClose, onFlash }: BidDialogProps) {
  const formId = useId();
  const create = useCreateBid({
    onSuccess: () => {
      onClose();
      onFlash(success(dealTexts.bidCreated));
    },
  });
  const update = useUpdateBid({
    onSuccess: () => {
      onClose();
      onFlash(success(dealTexts.bidUpdated));
    },
  });
  const updating = !!deal?.my_bid;
  const mutation = updating ? update : create;
  const { user } = useAuth();
  // The viewer's own bid as the deal's bids answer it (with its proposal and estimate), to change it.
  const bids = useDealBids(deal?.id ?? 0, updating);
  const ownBid = updating
    ? bids.data?.find((bid) => bid.id === deal?.my_bid?.id || sameUser(bid.dealmaker, user?.username))
    : undefined;
  const waiting = updating && bids.isPending;

  return (
    <Dialog
      open={deal !== null}
      onOpenChange={(open) => {
        if (open) return;
        create.reset();
        update.reset();
        onClose();
      }}
      title={updating ? 'Update Bid' : 'Bid as Dealmaker'}
      description={
        deal ? (
          <>
            {deal.title} · budget {formatMoney(deal.budget)}
          </>
        ) : undefined
      }
      size="md"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={mutation.isPending} disabled={waiting}>
            {mutation.isPending ? 'Saving...' : updating ? 'Update Bid' : 'Place Bid'}
          </Button>
        </>
      }
    >
      {deal &&
        (waiting ? (
          <LoadingState label="Loading your bid..." />
        ) : (
          <BidForm
            id={formId}
            initial={initialBid(deal, ownBid)}
            error={mutation.error}
            onSubmit={(typed) => {
              const price = typedAmount(typed.price);
              const details = {
                proposal: typed.proposal.trim() || null,
                // Text that is no number goes to the schema as typed, to be refused in its words.
                deliveryDays: typedDays(typed.deliveryDays) as number | null,
              };
              const myBid = deal.my_bid;
              const checked = myBid
                ? checkWith(updateBidSchema, { price, ...details })
                : checkWith(createBidSchema, { dealId: deal.id, price, ...details });
              if (!checked.ok) return checked.problems;
              const dollars = centsToDollars(checked.value.price);
              const { proposal = null, deliveryDays = null } = checked.value;
              if (!myBid) {
                create.mutate({ dealId: deal.id, price: dollars, proposal, deliveryDays });
                return null;
              }
              // A change sends the proposal and estimate as the form shows them (emptied: removed); when
              // the bid could not be read, only what was typed, so that nothing unseen is removed.
              update.mutate({
                bidId: myBid.id,
                price: dollars,
                ...(ownBid || proposal !== null ? { proposal } : {}),
                ...(ownBid || deliveryDays !== null ? { deliveryDays } : {}),
              });
              return null;
            }}
          />
        ))}
    </Dialog>
  );
}

function initialBid(deal: Deal, ownBid: Bid | undefined): TypedBid {
  return {
    price: deal.my_bid ? String(deal.my_bid.price) : '',
    proposal: ownBid?.proposal ?? '',
    deliveryDays: ownBid?.deliveryDays != null ? String(ownBid.deliveryDays) : '',
  };
}

type Problems = Partial<Record<string, string>>;

function BidForm({
  id,
  initial,
  error,
  onSubmit,
}: {
  id: string;
  initial: TypedBid;
  error: Error | null;
  /** Sends the bid as typed, or says why it cannot be sent (by field). */
  onSubmit: (bid: TypedBid) => Problems | null;
}) {
  const [bid, setBid] = useState(initial);
  const [problems, setProblems] = useState<Problems>({});
  const set = (field: keyof TypedBid) => (event: { target: { value: string } }) =>
    setBid((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblems(onSubmit(bid) ?? {});
  };

  const fieldErrors = error instanceof ApiError ? (error.fieldErrors ?? {}) : {};
  const { min, max } = limits.bid.deliveryDays;

  return (
    <form id={id} onSubmit={submit} className="space-y-4">
      {error && (
        <Alert variant="error" detail={serverReason(error)}>
          {dealTexts.bidFailed}
        </Alert>
      )}
      <TextField
        label="Price ($)"
        hint="What you ask for making this deal happen."
        error={problems.price ?? fieldErrors.price}
        name="price"
        type="number"
        inputMode="decimal"
        required
        min={0.01}
        step={0.01}
        autoFocus
        value={bid.price}
        onChange={set('price')}
        placeholder="1000.00"
      />
      <TextareaField
        label="Proposal (optional)"
        hint={`What you will do for this deal, and why you (at most ${limits.bid.proposal.max.toLocaleString('en-US')} characters).`}
        error={problems.proposal ?? fieldErrors.proposal}
        name="proposal"
        rows={4}
        maxLength={limits.bid.proposal.max}
        value={bid.proposal}
        onChange={set('proposal')}
      />
      <TextField
        label="Delivery estimate in days (optional)"
        hint="How many days you expect to take."
        error={problems.deliveryDays ?? fieldErrors.deliveryDays}
        name="deliveryDays"
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={bid.deliveryDays}
        onChange={set('deliveryDays')}
        placeholder="14"
        className="max-w-40"
      />
    </form>
  );
}
