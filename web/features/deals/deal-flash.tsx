import { Alert } from '../../components/ui/alert';
import { serverReason } from '../../lib/api';

/** The Deals page's result messages (spec §8 Deals page). */
export const dealTexts = {
  created: 'Deal created successfully!',
  createFailed: 'Failed to create deal.',
  joined: 'Joined deal successfully!',
  joinFailed: 'Failed to join deal.',
  left: 'Left deal successfully!',
  leaveFailed: 'Failed to leave deal.',
  deleted: 'Deal deleted successfully!',
  deleteFailed: 'Failed to delete deal.',
  bidUpdated: 'Bid updated successfully!',
  bidCreated: 'Bid created successfully!',
  bidFailed: 'Failed to create/update bid.',
  bidDeleted: 'Bid deleted successfully!',
  bidDeleteFailed: 'Failed to delete bid.',
  // Our own texts (not the spec's): the creator's controls and asking to join an 'approval' deal.
  edited: 'Deal updated successfully!',
  editFailed: 'Failed to update deal.',
  counterpartRemoved: 'Counterpart removed successfully!',
  removeCounterpartFailed: 'Failed to remove counterpart.',
  askedToJoin: 'Request to join sent successfully!',
  askToJoinFailed: 'Failed to send your request to join.',
  joinAccepted: 'Request accepted successfully!',
  joinAcceptFailed: 'Failed to accept the request.',
  joinDeclined: 'Request declined successfully!',
  joinDeclineFailed: 'Failed to decline the request.',
} as const;

/** A message in the flash strip: the screen's own text, and for a refusal the server's reason under it. */
export type Flash = { variant: 'success' | 'error'; text: string; detail?: string };

export type ShowFlash = (flash: Flash) => void;

/** How long a flash message stays. */
export const flashDurationMs = 5000;

export const success = (text: string): Flash => ({ variant: 'success', text });

export function failure(text: string, error: unknown): Flash {
  const detail = serverReason(error);
  return { variant: 'error', text, detail: detail && detail !== text ? detail : undefined };
}

export function FlashStrip({ flash, className }: { flash: Flash | null; className?: string }) {
  if (!flash) return null;
  return (
    <Alert variant={flash.variant} detail={flash.detail} className={className}>
      {flash.text}
    </Alert>
  );
}
