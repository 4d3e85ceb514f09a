import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { AlertCircleIcon, CheckCircleIcon, CloseIcon, InfoIcon } from './icons';

const styles = {
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-800', Icon: CheckCircleIcon },
  error: { box: 'border-rose-200 bg-rose-50 text-rose-800', Icon: AlertCircleIcon },
  info: { box: 'border-sky-200 bg-sky-50 text-sky-800', Icon: InfoIcon },
} as const;

type AlertProps = {
  variant: keyof typeof styles;
  children: ReactNode;
  /** A second, smaller line (e.g. the server's explanation under a fixed message). */
  detail?: ReactNode;
  className?: string;
  /** A message that stays until closed (one with a link to follow) gets a close button that calls this. */
  onDismiss?: () => void;
};

/**
 * An inline message banner. Errors are announced at once (role alert), the others politely (role status).
 */
export function Alert({ variant, children, detail, className, onDismiss }: AlertProps) {
  const { box, Icon } = styles[variant];
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn('flex items-start gap-2.5 rounded-xl border px-4 py-3 text-left text-sm', box, className)}
    >
      <Icon size={18} className="mt-px shrink-0" />
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="font-medium">{children}</p>
        {detail && <p className="opacity-90">{detail}</p>}
      </div>
      {onDismiss && (
        <button
          type="button"
          aria-label="Dismiss"
          onClick={onDismiss}
          className="-my-2 -mr-2 inline-flex h-10 w-10 shrink-0 cursor-pointer items-center justify-center rounded-lg transition-colors hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <CloseIcon size={16} />
        </button>
      )}
    </div>
  );
}

/** A result to show for a while: the screen's text, its colour, and maybe the server's reason under it. */
export type Notice = { tone: 'success' | 'error'; text: string; detail?: ReactNode };

export function NoticeAlert({ notice, className }: { notice: Notice; className?: string }) {
  return (
    <Alert variant={notice.tone} detail={notice.detail} className={className}>
      {notice.text}
    </Alert>
  );
}
