import { loadedWhenOpened } from '../../lib/loaded-when-opened';
import type { SaveSearchDialogProps } from './save-search-dialog';

// The part of this feature downloaded when first opened, apart from the rest: the Deals page's first
// download has a weight budget (scripts/bundle-size.mjs). Imported by index.ts only.

/** The dialog that saves the Deals page's search (save-search-dialog.tsx), downloaded when first opened. */
export const SaveSearchDialog = loadedWhenOpened<SaveSearchDialogProps>(
  () => import('./save-search-dialog').then((module) => module.SaveSearchDialog),
  (props) => props.open,
);
