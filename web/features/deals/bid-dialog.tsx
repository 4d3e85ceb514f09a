import { type FormEvent, useId, useState } from 'react';
import { createBidSchema, type Deal, updateBidSchema } from '../../../contract/deals';
import { centsToDollars } from '../../../contract/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { formatMoney, typedAmount } from '../../lib/money';
import { useCreateBid, useUpdateBid } from './bids-api';
import { dealTexts, type ShowFlash, success } from './deal-flash';

type BidDialogProps = {
  /** The deal to bid on; the dialog is open while there is one. */
  deal: Deal | null;
  onClose: () => void;
  onFlash: ShowFlash;
};

/** The bid modal: one price field, titled Bid as Dealmaker for a new bid or Update Bid for the viewer's own. */
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
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={mutation.isPending}>
            {mutation.isPending ? 'Saving...' : updating ? 'Update Bid' : 'Place Bid'}
          </Button>
        </>
      }
    >
      {deal && (
        <BidForm
          id={formId}
          initialPrice={deal.my_bid ? String(deal.my_bid.price) : ''}
          error={mutation.error}
          onSubmit={(typed) => {
            const price = typedAmount(typed);
            const myBid = deal.my_bid;
            const checked = myBid
              ? checkWith(updateBidSchema, { price })
              : checkWith(createBidSchema, { dealId: deal.id, price });
            if (!checked.ok) return checked.problem;
            const dollars = centsToDollars(checked.value.price);
            if (myBid) update.mutate({ bidId: myBid.id, price: dollars });
            else create.mutate({ dealId: deal.id, price: dollars });
            return null;
          }}
        />
      )}
    </Dialog>
  );
}

function BidForm({
  id,
  initialPrice,
  error,
  onSubmit,
}: {
  id: string;
  initialPrice: string;
  error: Error | null;
  /** Sends the price as typed, or says why it cannot be sent. */
  onSubmit: (price: string) => string | null;
}) {
  const [price, setPrice] = useState(initialPrice);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(onSubmit(price));
  };

  const fieldErrors = error instanceof ApiError ? (error.fieldErrors ?? {}) : {};

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
        error={problem ?? fieldErrors.price}
        name="price"
        type="number"
        inputMode="decimal"
        required
        min={0.01}
        step={0.01}
        autoFocus
        value={price}
        onChange={(event) => setPrice(event.target.value)}
        placeholder="1000.00"
      />
    </form>
  );
}
