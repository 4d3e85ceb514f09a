import type { ComponentPropsWithRef, InputHTMLAttributes, LabelHTMLAttributes, ReactNode } from 'react';
import { useId } from 'react';
import { cn } from '../../lib/cn';

const control =
  'block w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-xs transition-colors ' +
  'placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 ' +
  'disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500 ' +
  'read-only:bg-slate-50 read-only:text-slate-600 read-only:focus:ring-0';
const normal = 'border-slate-300 focus:border-indigo-500';
const invalid = 'border-rose-400 focus:border-rose-500 focus:ring-rose-500/25';

export type InputProps = ComponentPropsWithRef<'input'> & { invalid?: boolean };

export function Input({ invalid: isInvalid, className, ...props }: InputProps) {
  return (
    <input
      aria-invalid={isInvalid || undefined}
      className={cn(control, 'h-10', isInvalid ? invalid : normal, className)}
      {...props}
    />
  );
}

export type TextareaProps = ComponentPropsWithRef<'textarea'> & { invalid?: boolean };

export function Textarea({ invalid: isInvalid, className, rows = 4, ...props }: TextareaProps) {
  return (
    <textarea
      rows={rows}
      aria-invalid={isInvalid || undefined}
      className={cn(control, 'py-2 leading-relaxed', isInvalid ? invalid : normal, className)}
      {...props}
    />
  );
}

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('block text-sm font-medium text-slate-700', className)} {...props} />;
}

type FieldProps = {
  label: ReactNode;
  /** Help text under the control. */
  hint?: ReactNode;
  /** Error text under the control; marks the control invalid. */
  error?: string | string[];
  className?: string;
  /** Renders the control with the ids that tie it to its label, hint and error. */
  children: (control: { id: string; 'aria-describedby': string | undefined; invalid: boolean }) => ReactNode;
};

/** A label, its control, and the control's help or error text, tied together for assistive technology. */
export function Field({ label, hint, error, className, children }: FieldProps) {
  const id = useId();
  const errorText = Array.isArray(error) ? error.join(' ') : error;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errorText ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-describedby': describedBy, invalid: !!errorText })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {errorText && (
        <p id={errorId} className="text-xs font-medium text-rose-600">
          {errorText}
        </p>
      )}
    </div>
  );
}

type FieldLabels = Pick<FieldProps, 'label' | 'hint' | 'error'>;

/** A labelled text input: the common case of Field. */
export function TextField({ label, hint, error, ...props }: FieldLabels & InputProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <Input {...control} {...props} />}
    </Field>
  );
}

/** A labelled multi-line input. */
export function TextareaField({ label, hint, error, ...props }: FieldLabels & TextareaProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <Textarea {...control} {...props} />}
    </Field>
  );
}

/** A checkbox with its label beside it. */
export function Checkbox({
  label,
  className,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: ReactNode }) {
  return (
    <label className={cn('inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700', className)}>
      <input
        type="checkbox"
        className="h-4 w-4 cursor-pointer rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500"
        {...props}
      />
      {label}
    </label>
  );
}

/** A radio button with its label beside it, and a line of help under the label. */
export function Radio({
  label,
  hint,
  className,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: ReactNode; hint?: ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-2.5 rounded-lg border border-slate-200 px-3 py-2.5 text-sm transition-colors',
        'hover:bg-slate-50 has-checked:border-indigo-400 has-checked:bg-indigo-50/60',
        className,
      )}
    >
      <input
        type="radio"
        // Named by the label alone; the help describes it.
        aria-labelledby={`${id}-label`}
        aria-describedby={hint ? hintId : undefined}
        className="mt-0.5 h-4 w-4 shrink-0 cursor-pointer accent-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500"
        {...props}
      />
      <span className="min-w-0">
        <span id={`${id}-label`} className="block font-medium text-slate-900">
          {label}
        </span>
        {hint && (
          <span id={hintId} className="block text-xs text-slate-600">
            {hint}
          </span>
        )}
      </span>
    </label>
  );
}
