import { Suspense } from 'react';
import { RequestDealmakerSection } from '../../features/dealmaker-requests';
import {
  DealBidsSection,
  DealCreatorSection,
  DealFinalizedSection,
  DealJoinRequestsSection,
  type DealSectionProps,
  DealVisitorSection,
} from '../../features/deals';
import { DealCompletedSection, EscrowStatusBox } from '../../features/escrow';
import { MilestonesSection } from '../../features/milestones';
import { lazyAfterFirstPage } from '../../lib/first-page-shown';
import { DealWorkActions } from './deal-work-actions';

// The chat, last, comes after the sections above it: a page's worth of components, their queries and the
// chat's scrolling at once would hold a phone's main thread for a long moment.
const DealMessagesSection = lazyAfterFirstPage(() =>
  import('../../features/messages').then((module) => ({ default: module.DealMessagesSection })),
);

// The dealers' completion lines, which the page puts into its participants box.
export { DealCompletionLines } from '../../features/escrow';

/**
 * The deal page's sections below its header and participants, in order: their code (escrow, milestones,
 * bids, disputes, the chat…) loads after the page has shown the deal (deal-detail-page.tsx).
 */
export function DealDetailSections(props: DealSectionProps) {
  return (
    <>
      <DealVisitorSection {...props} />
      <DealCreatorSection {...props} />
      <DealJoinRequestsSection {...props} />
      <EscrowStatusBox {...props} />
      <MilestonesSection {...props} />
      <RequestDealmakerSection {...props} />
      <DealBidsSection {...props} />
      <DealFinalizedSection {...props} />
      <DealCompletedSection {...props} />
      <DealWorkActions {...props} />
      <Suspense fallback={null}>
        <DealMessagesSection {...props} />
      </Suspense>
    </>
  );
}
