import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { DealOutcomeSection, type DealSectionProps } from '../deals';

/**
 * 'Deal Completed': once both dealers marked it finished (or a dispute's settlement split the escrow),
 * with the final budget and the completion date.
 */
export function DealCompletedSection({ deal }: DealSectionProps) {
  if (!deal.is_completed) return null;
  // The deal says how it was completed: everyone who sees it reads it alike, no escrow call needed.
  const settled = deal.settled;
  return (
    <DealOutcomeSection
      titleId={`deal-completed-title-${deal.id}`}
      title="Deal Completed"
      text={
        settled
          ? "A dispute's settlement completed this deal: the escrow was split between the dealmaker and the dealers."
          : 'Both dealers marked this deal as finished and the escrow was released to the dealmaker.'
      }
      facts={[
        {
          label: 'Final Budget',
          value: formatMoney(deal.budget),
          valueClassName: 'mt-0.5 text-lg font-semibold text-slate-900',
        },
        {
          label: 'Completed On',
          value: deal.completion_date ? formatDateTime(deal.completion_date) : '—',
          valueClassName: 'mt-0.5 text-sm text-slate-900',
        },
      ]}
    />
  );
}
