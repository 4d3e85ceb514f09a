import type { DealEventKind, TimelineItem } from '../../../contract/timeline';
import type { TimelineRow } from './timeline.repository';

export function presentTimelineRow(dealId: number, row: TimelineRow): TimelineItem {
  if (row.type === 'event') {
    return {
      type: 'event',
      id: row.id,
      kind: row.kind as DealEventKind,
      actor: row.username ? { username: row.username, full_name: row.fullName ?? '' } : null,
      message: row.message,
      createdAt: row.createdAt.toISOString(),
    };
  }
  return {
    type: 'message',
    id: row.id,
    dealId,
    content: row.message,
    createdAt: row.createdAt.toISOString(),
    senderId: row.senderId!,
    sender: { id: row.senderId!, username: row.username ?? '', full_name: row.fullName ?? '' },
    senderUsername: row.username ?? '',
    clientId: row.clientId,
  };
}
