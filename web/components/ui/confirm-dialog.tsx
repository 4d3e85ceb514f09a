import { useState } from 'react';
import { loadedWhenOpened } from '../../lib/loaded-when-opened';
import type { Confirmation, ConfirmDialogProps } from './confirm-dialog-box';

export type { Confirmation } from './confirm-dialog-box';

/**
 * Asks before doing (confirm-dialog-box.tsx): its code, with the dialog library's, is downloaded the first
 * time a confirmation opens, not with every screen that may ask one.
 */
export const ConfirmDialog = loadedWhenOpened<ConfirmDialogProps>(
  () => import('./confirm-dialog-box').then((module) => module.ConfirmDialogBox),
  (props) => props.open,
);

/**
 * A confirmation to ask from a button: `ask({...})` opens it, and `dialog` goes anywhere in the
 * component's output.
 */
export function useConfirmation() {
  return useConfirmationOf((confirmation: Confirmation) => confirmation);
}

/**
 * A confirmation built from the component's current state on every render while it is open:
 * `ask(pending)` opens it with what was asked (an amount, which action), and `build(pending)` turns that
 * into the dialog. Facts that load later (the wallet balance) then appear once they arrive instead of
 * being missing for as long as the dialog stays open.
 */
export function useConfirmationOf<Pending>(build: (pending: Pending) => Confirmation) {
  // Kept after closing, so the dialog keeps its content through its closing animation.
  const [pending, setPending] = useState<{ value: Pending } | null>(null);
  const [open, setOpen] = useState(false);
  const ask = (value: Pending) => {
    setPending({ value });
    setOpen(true);
  };
  const dialog = pending && <ConfirmDialog {...build(pending.value)} open={open} onOpenChange={setOpen} />;
  return { ask, dialog, isOpen: open };
}
