import { useId, useState } from 'react';
import { StarIcon } from '../../components/ui/icons';
import { cn } from '../../lib/cn';
import { ratingCaption, ratingCaptions } from './rating';

const starValues = [1, 2, 3, 4, 5] as const;

/** A read-only row of five stars, the first `rating` filled. */
export function Stars({ rating, size = 16 }: { rating: number; size?: number }) {
  return (
    <span role="img" aria-label={`${rating} out of 5 stars`} className="inline-flex gap-0.5">
      {starValues.map((star) => (
        <StarIcon
          key={star}
          size={size}
          filled={star <= rating}
          className={star <= rating ? 'text-amber-400' : 'text-slate-300'}
        />
      ))}
    </span>
  );
}

type StarRatingInputProps = {
  value: number;
  onChange: (rating: number) => void;
  /** Names the group, e.g. 'Rating'. */
  label: string;
  disabled?: boolean;
};

/**
 * Choosing 1 to 5 stars: hovering previews a rating, clicking sets it. The stars are radio buttons
 * (visually hidden), so arrow keys move between them; the caption says what the rating means.
 */
export function StarRatingInput({ value, onChange, label, disabled = false }: StarRatingInputProps) {
  const [hovered, setHovered] = useState(0);
  const name = useId();
  const shown = hovered || value;

  return (
    <div>
      <div
        role="radiogroup"
        aria-label={label}
        onMouseLeave={() => setHovered(0)}
        className="inline-flex gap-1"
      >
        {starValues.map((star) => (
          <label
            key={star}
            onMouseEnter={() => setHovered(star)}
            className={cn(
              'cursor-pointer rounded-md p-0.5 transition-transform hover:scale-110 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500',
              star <= shown ? 'text-amber-400' : 'text-slate-300',
              disabled && 'cursor-not-allowed opacity-60',
            )}
          >
            <input
              type="radio"
              name={name}
              value={star}
              checked={value === star}
              disabled={disabled}
              onChange={() => onChange(star)}
              aria-label={`${star} ${star === 1 ? 'star' : 'stars'} (${ratingCaptions[star]})`}
              className="sr-only"
            />
            <StarIcon size={32} filled={star <= shown} />
          </label>
        ))}
      </div>
      <p aria-live="polite" className="mt-1 text-sm font-medium text-slate-600">
        {ratingCaption(value, hovered)}
      </p>
    </div>
  );
}
