import { type FormEvent, useId, useState } from 'react';
import type { Deal } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { CheckCircleIcon, StarIcon } from '../../components/ui/icons';
import { Field, Label, Textarea } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { notifySuccess } from '../../lib/notify';
import { type ReviewableUser, useCreateReview, useReviewable } from './reviews-api';
import { StarRatingInput } from './stars';

export type ReviewDialogProps = {
  deal: Deal;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

export const reviewTexts = {
  missing: 'Please select a user and provide a rating',
  failed: 'Failed to create review',
  fetchFailed: 'Failed to fetch reviewable users',
  allDone: 'All reviews submitted!',
  allDoneDetail: 'You have reviewed all participants in this deal.',
  submitted: 'Review submitted successfully!',
} as const;

/**
 * 'Leave a Review' (spec §2 Review modal): after completion, each participant rates every other
 * participant once, 1 to 5 stars with an optional comment.
 */
export function ReviewDialog({ deal, open, onOpenChange }: ReviewDialogProps) {
  const reviewable = useReviewable(deal.id, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Leave a Review" size="lg">
      {reviewable.isPending ? (
        <LoadingState label="Loading participants..." className="py-10" />
      ) : reviewable.isError ? (
        <div className="space-y-3">
          <Alert variant="error" detail={errorMessage(reviewable.error, '') || undefined}>
            {reviewTexts.fetchFailed}
          </Alert>
          <Button variant="outline" size="sm" onClick={() => reviewable.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <div className="space-y-5">
          <p className="rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600">
            Deal: <span className="font-semibold text-slate-900">{reviewable.data.dealTitle}</span>
          </p>
          {reviewable.data.reviewableUsers.length === 0 ? (
            <EmptyState
              icon={<CheckCircleIcon size={28} />}
              title={reviewTexts.allDone}
              description={reviewTexts.allDoneDetail}
              className="py-8"
            />
          ) : (
            <ReviewForm
              dealId={deal.id}
              users={reviewable.data.reviewableUsers}
              onSubmitted={(wasLast) => {
                notifySuccess(reviewTexts.submitted);
                if (wasLast) onOpenChange(false);
              }}
            />
          )}
        </div>
      )}
    </Dialog>
  );
}

function ReviewForm({
  dealId,
  users,
  onSubmitted,
}: {
  dealId: number;
  users: ReviewableUser[];
  onSubmitted: (wasLast: boolean) => void;
}) {
  const selectId = useId();
  const [username, setUsername] = useState('');
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateReview();
  // The chosen user may have been reviewed meanwhile (another tab): only a listed user counts.
  const chosen = users.some((user) => user.username === username) ? username : '';
  const ready = !!chosen && rating >= 1 && rating <= 5;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) {
      setProblem(reviewTexts.missing);
      return;
    }
    setProblem(null);
    const wasLast = users.length <= 1;
    create.mutate(
      { dealId, reviewedUsername: chosen, rating, comment: comment.trim() },
      {
        onSuccess: () => {
          setUsername('');
          setRating(0);
          setComment('');
          onSubmitted(wasLast);
        },
        onError: (error) => {
          console.error('Creating a review failed', error);
          setProblem(errorMessage(error, reviewTexts.failed));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Leave a Review" className="space-y-5">
      <div className="space-y-1.5">
        <Label htmlFor={selectId}>Participant</Label>
        <select
          id={selectId}
          name="reviewedUsername"
          value={chosen}
          onChange={(event) => {
            setUsername(event.target.value);
            setProblem(null);
          }}
          className={cn(
            'block h-10 w-full cursor-pointer rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-xs',
            'focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none',
            chosen ? 'text-slate-900' : 'text-slate-500',
          )}
        >
          <option value="" disabled>
            Select a user to review
          </option>
          {users.map((user) => (
            <option key={user.username} value={user.username}>
              {user.username} ({user.role})
            </option>
          ))}
        </select>
      </div>

      <div className="space-y-1.5">
        <p id={`${selectId}-rating`} className="text-sm font-medium text-slate-700">
          Rating
        </p>
        <StarRatingInput
          label="Rating"
          value={rating}
          onChange={(next) => {
            setRating(next);
            setProblem(null);
          }}
          disabled={create.isPending}
        />
      </div>

      <Field label="Comment" hint={`Optional · ${comment.length}/${limits.review.comment.max}`}>
        {(control) => (
          <Textarea
            {...control}
            name="comment"
            rows={4}
            maxLength={limits.review.comment.max}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            placeholder="How was it to work with them?"
          />
        )}
      </Field>

      {problem && <Alert variant="error">{problem}</Alert>}

      <div className="flex justify-end">
        <Button type="submit" disabled={!ready} loading={create.isPending}>
          {create.isPending ? 'Submitting...' : 'Submit Review'}
        </Button>
      </div>
    </form>
  );
}

/** 'Leave Reviews', once the deal is completed: opens the Leave a Review dialog. */
export function LeaveReviewsButton({ deal }: { deal: Deal }) {
  const [open, setOpen] = useState(false);
  if (!deal.is_completed) return null;
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
