import { formatMoney } from '../../lib/money';
import { DealOutcomeSection } from './deal-outcome-section';
import type { DealSectionProps } from './deal-section';
import { UserProfileLink } from './user-profile-link';

/** Once a dealmaker is chosen (and until the deal is completed): who it is and the final budget. */
export function DealFinalizedSection({ deal }: DealSectionProps) {
  if (!deal.dealmaker || deal.is_completed) return null;
  return (
    <DealOutcomeSection
      titleId="deal-finalized-title"
      title="Deal Finalized"
      text="The dealmaker is chosen and the final budget is set."
      facts={[
        {
          label: 'Dealmaker',
          value: <UserProfileLink username={deal.dealmaker} />,
          valueClassName: 'mt-0.5 text-sm',
        },
        {
          label: 'Final Budget',
          value: formatMoney(deal.budget),
          valueClassName: 'mt-0.5 text-lg font-semibold text-slate-900',
        },
      ]}
    />
  );
}
