import { useRef } from 'react';

/** Clicks this soon after opening are the rest of the double click that opened the dialog. */
const openingClickMs = 500;

const firstField =
  'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), select:not([disabled])';

/**
 * Where focus goes when a dialog opens and closes. Radix would focus the first focusable element (often
 * the close button) and, without a Radix trigger, return focus to nothing; people expect the first field,
 * and focus back on the button that opened the dialog.
 */
export function useDialogFocus(open: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  const openedAt = useRef(0);
  const wasOpen = useRef(false);
  // Read while rendering the opening: by the time effects run, focus has moved into the dialog.
  if (open && !wasOpen.current && typeof document !== 'undefined') {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openedAt.current = Date.now();
  }
  wasOpen.current = open;

  return {
    onOpenAutoFocus(event: Event) {
      const content = event.currentTarget as HTMLElement | null;
      const field =
        content?.querySelector<HTMLElement>('[data-autofocus]') ??
        content?.querySelector<HTMLElement>(firstField);
      if (!field) return;
      event.preventDefault();
      field.focus();
    },
    onCloseAutoFocus(event: Event) {
      const target = opener.current;
      if (!target?.isConnected) return;
      event.preventDefault();
      target.focus();
    },
    onPointerDownOutside(event: Event) {
      if (Date.now() - openedAt.current < openingClickMs) event.preventDefault();
    },
  };
}
