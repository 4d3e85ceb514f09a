import * as RadixDialog from '@radix-ui/react-dialog';
import type { KeyboardEventHandler, ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { CloseIcon } from './icons';
import { useDialogFocus } from './use-dialog-focus';

const widths = { sm: 'max-w-sm', md: 'max-w-md', lg: 'max-w-lg', xl: 'max-w-2xl', '2xl': 'max-w-4xl' };
export type DialogSize = keyof typeof widths;

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's accessible name, shown as its heading. */
  title: ReactNode;
  /** Shown under the title; also the dialog's accessible description. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom, right-aligned. */
  footer?: ReactNode;
  size?: DialogSize;
  /** Visually hides the title (it still names the dialog), for dialogs with their own header. */
  hideTitle?: boolean;
  className?: string;
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
  /** 'alertdialog' for a question that interrupts (a confirmation). */
  role?: 'dialog' | 'alertdialog';
};

/**
 * A modal dialog: focus goes to its first field (or its `data-autofocus` element) and is trapped
 * inside, Escape and the close button close it, the page behind is inert, and on closing focus returns
 * to what opened it. Dialogs may open on top of each other; Escape closes the top one.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  hideTitle = false,
  className,
  onKeyDown,
  role = 'dialog',
}: DialogProps) {
  const focus = useDialogFocus(open);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-slate-900/50 backdrop-blur-[2px]" />
        <RadixDialog.Content
          className={cn(
            'dialog-content fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col',
            'rounded-2xl bg-white shadow-2xl shadow-slate-900/20 focus:outline-none',
            widths[size],
            className,
          )}
          onOpenAutoFocus={focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
          onPointerDownOutside={focus.onPointerDownOutside}
          onKeyDown={onKeyDown}
          role={role}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className={cn('space-y-1 px-6 pt-6 pr-14', hideTitle && 'sr-only')}>
            <RadixDialog.Title className="text-lg font-semibold break-words text-slate-900">
              {title}
            </RadixDialog.Title>
            {description && (
              <RadixDialog.Description className="text-sm text-slate-600">
                {description}
              </RadixDialog.Description>
            )}
          </div>
          <div className={cn('overflow-y-auto px-6 pt-4 pb-6', hideTitle && 'pt-10')}>{children}</div>
          {footer && (
            <div className="flex flex-wrap items-center justify-end gap-3 border-t border-slate-100 px-6 py-4">
              {footer}
            </div>
          )}
          {/* Last in the document, so that focus starts on the dialog's content rather than here. */}
          <RadixDialog.Close
            className="absolute top-4 right-4 inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-500"
            aria-label="Close"
          >
            <CloseIcon size={18} />
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
