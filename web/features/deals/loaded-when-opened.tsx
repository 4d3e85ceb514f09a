import { type ComponentType, lazy, Suspense, useState } from 'react';

/**
 * A part whose code is downloaded when it is first shown, then kept mounted (a dialog then closes with
 * its animation): dialogs few visitors open, and parts of the deal page only, stay out of the Deals
 * page's first download, which has a weight budget (scripts/bundle-size.mjs). The features' modules
 * share one chunk, so a part the Deals page never shows is still downloaded with it unless it is split
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
