import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { Button, type ButtonVariant } from './button';
import { Dialog } from './dialog';

/** One question before an action that moves money or cannot be undone. */
export type Confirmation = {
  title: string;
  /** What will happen, in numbers: "Pay $5,250.00 from your wallet into escrow for '…'." */
  message: ReactNode;
  /** Lines under the message, e.g. the balance after. */
  facts?: Array<{ label: string; value: ReactNode }>;
  /**
   * Why the action cannot be taken now, said before the click ("Your balance is $0.00: you need
   * $5,250.00."), and what to do about it (`remedy`, e.g. a link to the wallet): shown under the
   * facts, and the action's button is disabled.
   */
  blocked?: { reason: string; remedy?: ReactNode };
  /** Names the action: 'Pay my half', 'Delete Deal'. */
  confirmLabel: string;
  /** The button's text while the action runs ('Paying...'). */
  busyLabel?: string;
  cancelLabel?: string;
  variant?: Extract<ButtonVariant, 'primary' | 'danger' | 'success'>;
  /**
   * Does it. A promise keeps the dialog open, its button busy, until the action settled; the dialog
   * then closes (the screen shows the outcome where it always does).
   */
  onConfirm: () => unknown;
};

export type ConfirmDialogProps = Confirmation & { open: boolean; onOpenChange: (open: boolean) => void };

/**
 * Asks before doing: Cancel, and a button naming the action. Enter confirms (focus starts on that
 * button), Escape cancels; focus stays inside and returns to the button that asked.
 */
export function ConfirmDialogBox({
  open,
  onOpenChange,
  title,
  message,
  facts,
  blocked,
  confirmLabel,
  busyLabel,
  cancelLabel = 'Cancel',
  variant = 'primary',
  onConfirm,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (busy || blocked) return;
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onOpenChange(false);
    }
  };
  // Enter anywhere but on another button confirms (on the confirm button it clicks it anyway).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || (event.target as HTMLElement).closest('button, a, textarea')) return;
    event.preventDefault();
    void confirm();
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) onOpenChange(next);
      }}
      title={title}
      description={message}
      size="md"
      role="alertdialog"
      onKeyDown={onKeyDown}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
            {cancelLabel}
          </Button>
          {/* Blocked, focus starts on the remedy instead (a disabled button cannot hold it). */}
          <Button
            variant={variant}
            data-autofocus={blocked ? undefined : true}
            disabled={!!blocked}
            loading={busy}
            onClick={() => void confirm()}
          >
            {busy && busyLabel ? busyLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {((facts && facts.length > 0) || blocked) && (
        <div className="space-y-3">
          {facts && facts.length > 0 && (
            <dl className="space-y-2 rounded-xl bg-slate-50 px-4 py-3 text-sm">
              {facts.map((fact) => (
                <div key={fact.label} className="flex flex-wrap justify-between gap-x-4 gap-y-0.5">
                  <dt className="text-slate-600">{fact.label}</dt>
                  <dd className="font-semibold text-slate-900 tabular-nums">{fact.value}</dd>
                </div>
              ))}
            </dl>
          )}
          {blocked && (
            <p className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
              {blocked.reason}
              {blocked.remedy && <> {blocked.remedy}</>}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
