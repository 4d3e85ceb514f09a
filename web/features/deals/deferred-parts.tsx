import { loadedWhenOpened } from '../../lib/loaded-when-opened';
import type { CreateDealDialogProps } from './create-deal-dialog';
import type { DealSectionProps } from './deal-section';
import type { MyDealsDialogProps } from './my-deals-dialog';

// The parts of the deals feature downloaded when first shown (lib/loaded-when-opened.tsx): imported by
// index.ts only, so that no part imports the module that loads it.

/** The Create Deal modal (create-deal-dialog.tsx), loaded when first opened. */
export const CreateDealDialog = loadedWhenOpened<CreateDealDialogProps>(
  () => import('./create-deal-dialog').then((module) => module.CreateDealDialog),
  (props) => props.open,
);

/** The My Deals modal (my-deals-dialog.tsx), loaded when first opened. */
export const MyDealsDialog = loadedWhenOpened<MyDealsDialogProps>(
  () => import('./my-deals-dialog').then((module) => module.MyDealsDialog),
  (props) => props.open,
);

/** The deal page's Bids section (select, unselect, finalize): downloaded with the deal page, not the Deals page. */
export const DealBidsSection = loadedWhenOpened<DealSectionProps>(
  () => import('./deal-bids-section').then((module) => module.DealBidsSection),
  () => true,
);

/** The deal page's creator controls (Edit Deal, Remove Counterpart): downloaded with the deal page, not the Deals page. */
export const DealCreatorSection = loadedWhenOpened<DealSectionProps>(
  () => import('./deal-creator-section').then((module) => module.DealCreatorSection),
  () => true,
);

/** The deal page's Requests to join: downloaded with the deal page, not the Deals page. */
export const DealJoinRequestsSection = loadedWhenOpened<DealSectionProps>(
  () => import('./deal-join-requests-section').then((module) => module.DealJoinRequestsSection),
  () => true,
);

/** The deal page for an outsider or bidder (join or ask to, bid): downloaded with the deal page, not the Deals page. */
export const DealVisitorSection = loadedWhenOpened<DealSectionProps>(
  () => import('./deal-visitor-section').then((module) => module.DealVisitorSection),
  () => true,
);

/** A user's deals on their profile page's Activity tab: downloaded with that page, not the Deals page. */
export const UserActivityTab = loadedWhenOpened<{ username: string }>(
  () => import('./user-activity-tab').then((module) => module.UserActivityTab),
  () => true,
);
