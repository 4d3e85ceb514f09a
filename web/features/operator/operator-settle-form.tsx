import { type FormEvent, useState } from 'react';
import type { Escrow } from '../../../contract/escrow';
import type { OperatorDispute } from '../../../contract/operator';
import { operatorSettlementSchema } from '../../../contract/settlements';
import type { Notice } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { typedAmount } from '../../lib/money';
import {
  escrowCentsOf,
  operatorSettleConfirmation,
  ResolutionField,
  type SettlementPeople,
  SplitAmountField,
  settlementPreview,
  useSplitAmount,
} from '../disputes';
import { useOperatorSettle } from './operator-api';

type OperatorSettleFormProps = {
  item: OperatorDispute;
  escrow: Escrow;
  people: SettlementPeople;
  onNotice: (notice: Notice) => void;
};

/** The operator's decision: the amount to the dealmaker (with the live three-way split) and a resolution. */
export function OperatorSettleForm({ item, escrow, people, onNotice }: OperatorSettleFormProps) {
  const amount = useSplitAmount(escrow);
  const [resolution, setResolution] = useState('');
  const [resolutionProblem, setResolutionProblem] = useState<string | null>(null);
  const confirmation = useConfirmation();
  const settle = useOperatorSettle({
    onSuccess: () => onNotice({ tone: 'success', text: `Settled the escrow of '${item.deal.title}'` }),
    onError: (error) =>
      onNotice({ tone: 'error', text: 'Failed to settle the escrow', detail: serverReason(error) }),
  });
  const escrowCents = escrowCentsOf(escrow).amountCents;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The amount's own words (empty, beyond the escrow) come from the split field; the request as a
    // whole is the contract's schema's to check.
    const toDealmakerCents = amount.take();
    const checked = checkWith(operatorSettlementSchema, {
      toDealmaker: typedAmount(amount.field.text),
      resolution,
    });
    setResolutionProblem(checked.ok ? null : (checked.problems.resolution ?? null));
    if (toDealmakerCents === null || !checked.ok) return;
    const reason = checked.value.resolution;
    confirmation.ask(
      operatorSettleConfirmation(
        { title: item.deal.title, escrowCents },
        settlementPreview(escrow, toDealmakerCents),
        people,
        {
          onConfirm: () =>
            settle.mutateSettled({ disputeId: item.dispute.id, toDealmakerCents, resolution: reason }),
        },
      ),
    );
  };

  return (
    <form
      aria-label={`Settle '${item.deal.title}'`}
      onSubmit={submit}
      noValidate
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
    >
      <SplitAmountField people={people} {...amount.field} />
      <ResolutionField
        value={resolution}
        onChange={(next) => {
          setResolution(next);
          setResolutionProblem(null);
        }}
        error={resolutionProblem}
        placeholder="Why the escrow is split this way"
      />
      <div className="flex justify-end">
        <Button type="submit" variant="danger" loading={settle.isPending}>
          Settle escrow
        </Button>
      </div>
      {confirmation.dialog}
    </form>
  );
}
