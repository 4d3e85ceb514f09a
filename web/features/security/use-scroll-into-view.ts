import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Scrolls the element into view when the page was opened at `#id` (a link in a mail): the page's data
 * loads first, so the element did not exist yet when the browser looked for the anchor.
 */
export function useScrollIntoViewWhenLinked<T extends HTMLElement>(id: string) {
  const element = useRef<T>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === `#${id}`) element.current?.scrollIntoView?.({ block: 'start' });
  }, [hash, id]);
  return element;
}
