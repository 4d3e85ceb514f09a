import type { Deal } from '../../../contract/deals';
import { Badge } from '../../components/ui/badge';

/** Where a deal stands: Completed, Finalized (has a dealmaker), Open (nobody joined), or Seeking dealmaker. */
export function DealStatusBadge({
  deal,
}: {
  deal: Pick<Deal, 'is_completed' | 'dealmaker' | 'dealer_joined'>;
}) {
  if (deal.is_completed) return <Badge tone="green">Completed</Badge>;
  if (deal.dealmaker) return <Badge tone="indigo">Finalized</Badge>;
  if (!deal.dealer_joined) return <Badge tone="blue">Open</Badge>;
  return <Badge tone="amber">Seeking dealmaker</Badge>;
}
