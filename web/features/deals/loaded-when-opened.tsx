import { type ComponentType, lazy, Suspense, useState } from 'react';
import type { CreateDealDialogProps } from './create-deal-dialog';
import type { DealSectionProps } from './deal-section';
import type { MyDealsDialogProps } from './my-deals-dialog';

/**
 * A part whose code is downloaded when it is first shown, then kept mounted (a dialog then closes with
 * its animation): dialogs few visitors open, and parts of the deal page only, stay out of the Deals
 * page's first download, which has a weight budget (scripts/bundle-size.mjs). The features' modules
 * share one chunk, so a part the Deals page never shows is still downloaded with it unless it is split
 * off here.
 */
export function loadedWhenOpened<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  isOpen: (props: Props) => boolean,
): ComponentType<Props> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function LoadedWhenOpened(props: Props) {
    const [wanted, setWanted] = useState(false);
    if (isOpen(props) && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

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
