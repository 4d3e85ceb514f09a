import { useState } from 'react';
import type { Deal } from '../../../contract/deals';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { CheckCircleIcon, StarIcon } from '../../components/ui/icons';
import { QueryDialog } from '../../components/ui/query-dialog';
import { notifySuccess } from '../../lib/notify';
import { ReviewForm } from './review-form';
import { reviewTexts } from './review-texts';
import { useReviewable } from './reviews-api';

export type ReviewDialogProps = {
  deal: Deal;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * 'Leave a Review' (spec §2 Review modal): after completion, each participant rates every other
 * participant once, 1 to 5 stars with an optional comment.
 */
export function ReviewDialog({ deal, open, onOpenChange }: ReviewDialogProps) {
  const reviewable = useReviewable(deal.id, open);
  const users = reviewable.data?.reviewableUsers ?? [];
  return (
    <QueryDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Leave a Review"
      size="lg"
      query={reviewable}
      loadingLabel="Loading participants..."
      errorText={reviewTexts.fetchFailed}
      subject={reviewable.data && { label: 'Deal', value: reviewable.data.dealTitle }}
      empty={
        users.length === 0 && (
          <EmptyState
            icon={<CheckCircleIcon size={28} />}
            title={reviewTexts.allDone}
            description={reviewTexts.allDoneDetail}
            className="py-8"
          />
        )
      }
    >
      <ReviewForm
        dealId={deal.id}
        users={users}
        onSubmitted={(wasLast) => {
          notifySuccess(reviewTexts.submitted);
          if (wasLast) onOpenChange(false);
        }}
      />
    </QueryDialog>
  );
}

/** 'Leave Reviews', once the deal is completed (`can.review`): opens the Leave a Review dialog. */
export function LeaveReviewsButton({ deal }: { deal: Deal }) {
  const [open, setOpen] = useState(false);
  if (!deal.can.review) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <StarIcon size={16} />
        Leave Reviews
      </Button>
      <ReviewDialog deal={deal} open={open} onOpenChange={setOpen} />
    </>
  );
}
