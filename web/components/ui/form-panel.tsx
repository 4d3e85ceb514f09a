import type { FormEvent, ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button, type ButtonVariant } from './button';

type FormPanelProps = {
  /** Names the form; also its heading unless `compact`. */
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  /** The call is under way: Cancel is disabled, the submit button spins. */
  busy: boolean;
  submitLabel: string;
  submitVariant?: ButtonVariant;
  /** A small form inside a card (no heading, small buttons). */
  compact?: boolean;
  /** The box's look (border, background, spacing). */
  className: string;
  children: ReactNode;
};

/** A small form that opens in place of a button: its fields, then Cancel and the submit button. */
export function FormPanel({
  label,
  onSubmit,
  onCancel,
  busy,
  submitLabel,
  submitVariant,
  compact = false,
  className,
  children,
}: FormPanelProps) {
  const size = compact ? 'sm' : undefined;
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label} className={className}>
      {!compact && <h3 className="font-semibold text-slate-900">{label}</h3>}
      {children}
      <div className={cn('flex justify-end', compact ? 'gap-2' : 'gap-3')}>
        <Button size={size} variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button size={size} type="submit" variant={submitVariant} loading={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
