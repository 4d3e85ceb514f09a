import { QueryClient } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import type { RealtimeProviderProps } from '../features/realtime';
import { markFirstPageShown } from '../lib/first-page-shown';

// Tells React that updates in tests are wrapped in act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export type Rendered = { container: HTMLElement; unmount: () => void };

const mounted: Rendered[] = [];

/** Renders into a fresh container attached to the document. */
export async function render(ui: ReactNode): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => root.render(ui));
  const rendered = {
    container,
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
  mounted.push(rendered);
  return rendered;
}

/** Renders a screen inside the app's providers and a memory router at `path`. */
export function renderInApp(
  ui: ReactNode,
  options: { path?: string; routePath?: string; connectRealtime?: RealtimeProviderProps['connect'] } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter([{ path: options.routePath ?? '*', element: ui }], {
    initialEntries: [options.path ?? '/'],
  });
  // The screen is the page (no layout around it to say so): the live connection may open.
  markFirstPageShown();
  return render(
    // No socket unless the test brings its own: nothing to connect to here.
    <AppProviders queryClient={queryClient} connectRealtime={options.connectRealtime ?? null}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

export function cleanup() {
  for (const rendered of mounted.splice(0)) rendered.unmount();
  document.body.innerHTML = '';
}

/** Types into an input the way React notices (the native value setter, then an input event). */
export async function typeInto(element: Element | null, value: string) {
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) {
    throw new Error('typeInto needs an input or a textarea');
  }
  const prototype =
    element instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(element, value);
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function click(element: Element | null) {
  if (!(element instanceof HTMLElement)) throw new Error('click needs an element');
  await act(async () => element.click());
}

/** The input a visible label names (label[for] → id). */
export function getByLabel(container: ParentNode, text: string): HTMLElement {
  const label = [...container.querySelectorAll('label')].find(
    (element) => element.textContent?.trim() === text,
  );
  const control = label?.htmlFor ? document.getElementById(label.htmlFor) : label?.querySelector('input');
  if (!control) throw new Error(`No control labelled "${text}"`);
  return control;
}

/** The button whose text is exactly `text`. */
export function getButton(container: ParentNode, text: string): HTMLButtonElement {
  const button = [...container.querySelectorAll('button')].find(
    (element) => element.textContent?.trim() === text,
  );
  if (!button) throw new Error(`No button "${text}"`);
  return button;
}

/** Waits until `check` neither throws nor returns null or false, flushing React updates in between. */
export async function waitFor<T>(check: () => T, timeoutMs = 2000): Promise<Exclude<T, null | false>> {
  const started = Date.now();
  for (;;) {
    try {
      const result = check();
      if (result !== false && result !== null) return result as Exclude<T, null | false>;
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
    }
    if (Date.now() - started > timeoutMs) throw new Error('waitFor timed out');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
}
