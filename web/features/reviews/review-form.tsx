import { type FormEvent, useId, useState } from 'react';
import { limits } from '../../../contract/limits';
import { createReviewSchema } from '../../../contract/reviews';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Label, TextareaField } from '../../components/ui/input';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { checkWith } from '../../lib/form-check';
import { reviewTexts } from './review-texts';
import { type ReviewableUser, useCreateReview } from './reviews-api';
import { StarRatingInput } from './stars';

type ReviewFormProps = {
  dealId: number;
  users: ReviewableUser[];
  /** The review went in; `wasLast`: nobody is left to review. */
  onSubmitted: (wasLast: boolean) => void;
};

/** Choose a participant, rate them 1 to 5 stars, optionally comment. */
export function ReviewForm({ dealId, users, onSubmitted }: ReviewFormProps) {
  const selectId = useId();
  const [username, setUsername] = useState('');
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateReview();
  // The chosen user may have been reviewed meanwhile (another tab): only a listed user counts.
  const chosen = users.some((user) => user.username === username) ? username : '';
  const checked = checkWith(createReviewSchema, { dealId, reviewedUsername: chosen, rating, comment });
  const ready = checked.ok;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checked.ok) {
      // No participant or no rating: the spec's one message for both.
      const { reviewedUsername, rating: ratingProblem } = checked.problems;
      setProblem(reviewedUsername || ratingProblem ? reviewTexts.missing : checked.problem);
      return;
    }
    setProblem(null);
    const wasLast = users.length <= 1;
    create.mutate(checked.value, {
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
    });
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

      <TextareaField
        label="Comment"
        hint={`Optional · ${comment.length}/${limits.review.comment.max}`}
        name="comment"
        rows={4}
        maxLength={limits.review.comment.max}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        placeholder="How was it to work with them?"
      />

      {problem && <Alert variant="error">{problem}</Alert>}

      <div className="flex justify-end">
        <Button type="submit" disabled={!ready} loading={create.isPending}>
          {create.isPending ? 'Submitting...' : 'Submit Review'}
        </Button>
      </div>
    </form>
  );
}
