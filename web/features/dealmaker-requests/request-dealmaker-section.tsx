import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { UsersIcon } from '../../components/ui/icons';
import type { DealSectionProps } from '../deals';
import { RequestDealmakerDialog } from './request-dealmaker-dialog';

/** A dealer's way to ask someone directly to be the dealmaker, while the deal wants one (`can.requestDealmaker`). */
export function RequestDealmakerSection({ deal }: DealSectionProps) {
  const [requesting, setRequesting] = useState(false);
  if (!deal.can.requestDealmaker) return null;
  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-indigo-100 bg-indigo-50/60 px-6 py-5 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-white text-indigo-600 shadow-sm">
          <UsersIcon size={20} />
        </span>
        <div>
          <p className="font-semibold text-slate-900">Looking for a dealmaker?</p>
          <p className="text-sm text-slate-600">
            Choose among the bids below, or ask someone you trust directly.
          </p>
        </div>
      </div>
      <Button onClick={() => setRequesting(true)} className="shrink-0">
        Request a Dealmaker
      </Button>
      <RequestDealmakerDialog deal={deal} open={requesting} onOpenChange={setRequesting} />
    </div>
  );
}
