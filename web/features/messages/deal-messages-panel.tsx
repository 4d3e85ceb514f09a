import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { ChatIcon, CollapseIcon, ExpandIcon } from '../../components/ui/icons';
import { cn } from '../../lib/cn';
import type { DealSectionProps } from '../deals';
import { DealChat } from './deal-chat';
import { useFullscreen } from './use-fullscreen';

/** The chat of the deal detail view, for the deal's participants only. */
export function DealMessagesSection({ deal, viewer }: DealSectionProps) {
  if (!viewer.isParticipant) return null;
  return <DealMessagesPanel dealId={deal.id} />;
}

/**
 * 'Deal Messages' (spec §2, §4 Messages): the deal's history, live messages and typing indicators of
 * the others, and a form to send. It can fill the screen; Escape brings it back.
 */
export function DealMessagesPanel({ dealId }: { dealId: number | null | undefined }) {
  const [fullscreen, setFullscreen] = useFullscreen();

  return (
    <Card
      className={cn(
        'flex flex-col overflow-hidden',
        fullscreen && 'fixed inset-0 z-50 rounded-none border-0',
      )}
    >
      <section aria-label="Deal Messages" className="flex min-h-0 flex-1 flex-col">
        <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-6 py-4">
          <h2 className="text-lg font-semibold text-slate-900">Deal Messages</h2>
          {dealId != null && (
            <Button
              variant="ghost"
              size="sm"
              aria-pressed={fullscreen}
              onClick={() => setFullscreen((on) => !on)}
              title={fullscreen ? 'Exit fullscreen (Esc)' : 'Fullscreen'}
            >
              {fullscreen ? <CollapseIcon size={16} /> : <ExpandIcon size={16} />}
              {fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
            </Button>
          )}
        </div>
        {dealId == null ? (
          <EmptyState
            icon={<ChatIcon size={28} />}
            title="No deal selected for messaging."
            className="py-10"
          />
        ) : (
          <DealChat key={dealId} dealId={dealId} fullscreen={fullscreen} />
        )}
      </section>
    </Card>
  );
}
