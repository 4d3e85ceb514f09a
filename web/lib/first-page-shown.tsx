import {
  type ComponentProps,
  type ComponentType,
  type ReactNode,
  startTransition,
  useEffect,
  useState,
} from 'react';

/*
 * Whether the app has shown its first page yet. Work that page does not need to show (the live
 * connection: Socket.IO and the code of every feature its events patch; the parts beside a page's main
 * content) waits for it and then for an idle moment, so that on a slow phone it does not compete with
 * the page's own code, data and first paint.
 */

let markShown: () => void = () => {};
const shown = new Promise<void>((resolve) => {
  markShown = resolve;
});

/** Called by the layout once its first page is on screen (and by tests that render a screen alone). */
export function markFirstPageShown(): void {
  markShown();
}

/** A hidden tab paints no frames: it waits this long instead. */
const hiddenTabFrameWaitMs = 500;

/**
 * Runs `task` once the first page has been shown, its frame painted and then the browser idle (or
 * `maxWaitMs` later at most, on a page that never idles); returns what cancels it.
 */
export function whenFirstPageIdle(task: () => void, maxWaitMs = 2000): () => void {
  let cancelled = false;
  let started = false;
  const cancels: Array<() => void> = [];
  const later = (run: () => void, delayMs: number) => {
    const timer = setTimeout(run, delayMs);
    cancels.push(() => clearTimeout(timer));
  };
  const startWhenIdle = () => {
    if (cancelled || started) return;
    started = true;
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(task, { timeout: maxWaitMs });
      cancels.push(() => cancelIdleCallback(handle));
    } else {
      // Safari has no requestIdleCallback: after the tasks already queued.
      later(task, 0);
    }
  };
  void shown.then(() => {
    if (cancelled) return;
    // A timer set from a frame's callback runs once that frame is painted; a hidden tab paints none.
    const frame = requestAnimationFrame(() => later(startWhenIdle, 0));
    cancels.push(() => cancelAnimationFrame(frame));
    later(startWhenIdle, hiddenTabFrameWaitMs);
  });
  return () => {
    cancelled = true;
    for (const cancel of cancels) cancel();
  };
}

/** Whether the first page has been shown and the browser idle since: for what may wait until then. */
export function useAfterFirstPage(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => whenFirstPageIdle(() => setAfter(true)), []);
  return after;
}

/**
 * A component whose code downloads only once the first page has been shown and the browser is idle, then
 * renders as a transition (in slices between the browser's other work): for parts beside or below a page's
 * main content (the bell, badges, the deal page's lower sections), which would otherwise compete with that
 * content on a slow phone. `placeholder` shows until then (a box of the part's size, so that nothing moves).
 */
// biome-ignore lint/suspicious/noExplicitAny: React.lazy's own bound, which any component's props satisfy
export function lazyAfterFirstPage<Component extends ComponentType<any>>(
  load: () => Promise<{ default: Component }>,
  placeholder: ReactNode = null,
): ComponentType<ComponentProps<Component>> {
  let loading: Promise<Component> | undefined;
  let loaded: Component | undefined;
  return function AfterFirstPage(props: ComponentProps<Component>) {
    const [Loaded, setLoaded] = useState(() => loaded);
    useEffect(() => {
      if (Loaded) return;
      let mounted = true;
      const cancel = whenFirstPageIdle(() => {
        loading ??= load().then((module) => {
          loaded = module.default;
          return loaded;
        });
        loading.then(
          (component) => {
            if (mounted) startTransition(() => setLoaded(() => component));
          },
          (error: unknown) => {
            // Asked again by the next mount.
            loading = undefined;
            console.error('A part of the page could not load:', error);
          },
        );
      });
      return () => {
        mounted = false;
        cancel();
      };
    }, [Loaded]);
    return Loaded ? <Loaded {...props} /> : placeholder;
  };
}
