import { useState } from 'react';
import { useTimedMessage } from '../../lib/use-timed-message';
import { creatorPageActions, dealCardActions } from './card-actions';
import { DealCardActions } from './deal-card-actions';
import { type DealDialog, DealDialogs } from './deal-dialogs';
import { type Flash, FlashStrip, flashDurationMs } from './deal-flash';
import { type DealSectionProps, DetailSection } from './deal-section';

/**
 * The deal page for its creator: Edit Deal while it has no dealmaker, Remove Counterpart while no escrow
 * half is paid (asked first), each with its outcome.
 */
export function DealCreatorSection({ deal, viewer }: DealSectionProps) {
  const [flash, showFlash] = useTimedMessage<Flash>(flashDurationMs);
  const [dialog, setDialog] = useState<DealDialog | null>(null);
  if (viewer.role !== 'creator') return null;
  const actions = dealCardActions(deal, viewer).filter((action) => creatorPageActions.includes(action));
  if (actions.length === 0 && !flash) return null;

  return (
    <DetailSection
      title="Manage Deal"
      description="Correct your deal until it has its dealmaker; remove its counterpart until an escrow half is paid."
    >
      <div className="space-y-4">
        <FlashStrip flash={flash} />
        {actions.length > 0 && (
          <div className="flex flex-wrap gap-2">
            <DealCardActions deal={deal} actions={actions} onFlash={showFlash} onOpen={setDialog} />
          </div>
        )}
      </div>
      <DealDialogs open={dialog} onClose={() => setDialog(null)} onFlash={showFlash} />
    </DetailSection>
  );
}
