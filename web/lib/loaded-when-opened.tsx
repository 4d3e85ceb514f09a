import { type ComponentType, lazy, Suspense, useState } from 'react';

/**
 * A part whose code is downloaded when it is first shown, then kept mounted (a dialog then closes with
 * its animation): dialogs few visitors open, and parts of one page only, stay out of the first download of
 * the pages that never show them (the weight budgets, scripts/bundle-size.mjs). A page that imports a
 * feature's entry downloads every part that entry exports statically, used or not, unless it is split
 * off here.
 */
export function loadedWhenOpened<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  isOpen: (props: Props) => boolean,
): ComponentType<Props> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function LoadedWhenOpened(props: Props) {
    const [wanted, setWanted] = useState(false);
    if (isOpen(props) && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
