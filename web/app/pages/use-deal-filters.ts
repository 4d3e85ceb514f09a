import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  type DealFilters,
  filtersFromParams,
  filtersKey,
  filtersToParams,
  withKeywords,
} from '../../features/deals';

/** How long typing pauses before the list follows it. */
export const typingDelayMs = 400;

/** What changes the filters: a function of the current ones, and for typing the field typed in. */
export type UpdateFilters = (
  change: (filters: DealFilters) => DealFilters,
  options?: { typing?: string },
) => void;

/**
 * The Deals page's filters, held in the address (?q=&status=&minBudget=&maxBudget=&sort=): a link is the
 * search, and Back and Forward step through the searches made. Each change is a step of the history, but
 * typing: the first pause in a field makes a step and the next pauses in the same field replace it, so
 * that a word typed in three pauses is one step.
 */
export function useDealFilters() {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const filters = useMemo(() => filtersFromParams(new URLSearchParams(search)), [search]);
  const current = useRef(filters);
  current.current = filters;
  /** The field whose typing made the current step, if the last change was typing. */
  const typing = useRef<string | null>(null);

  const update = useCallback<UpdateFilters>(
    (change, options = {}) => {
      const before = current.current;
      const next = change(before);
      const replace = options.typing !== undefined && typing.current === options.typing;
      typing.current = options.typing ?? null;
      if (filtersKey(next) === filtersKey(before)) return;
      // Two changes before the next render build on each other.
      current.current = next;
      setParams(filtersToParams(next), { replace });
    },
    [setParams],
  );
  /** The next typing makes a step of its own (the field lost the focus, or the search was sent). */
  const endTyping = useCallback(() => {
    typing.current = null;
  }, []);

  return { filters, update, endTyping };
}

/**
 * A value typed in a field that follows the address: the draft shows what is typed, goes into the
 * address after a pause, and is replaced when the address changes otherwise (Back, a link, a saved
 * search).
 */
function useDraft<Value>(
  value: Value,
  options: {
    show: (value: Value) => string;
    /** The value a draft stands for; undefined when the draft is no value (it then waits to be corrected). */
    read: (draft: string) => Value | undefined;
    same: (a: Value, b: Value) => boolean;
    commit: (value: Value, typing: boolean) => void;
  },
) {
  const { show, read, same, commit } = options;
  const [draft, setDraft] = useState(() => show(value));
  const committed = useRef(value);

  // The address changed by something else than this field: the field shows it.
  useEffect(() => {
    if (same(value, committed.current)) return;
    committed.current = value;
    setDraft(show(value));
  }, [value, same, show]);

  const send = useCallback(
    (text: string, typing: boolean) => {
      const next = read(text);
      if (next === undefined) return;
      committed.current = next;
      commit(next, typing);
    },
    [read, commit],
  );

  useEffect(() => {
    const next = read(draft);
    if (next === undefined || same(next, committed.current)) return;
    const timer = setTimeout(() => send(draft, true), typingDelayMs);
    return () => clearTimeout(timer);
  }, [draft, read, same, send]);

  return { draft, setDraft, send: (typing = false) => send(draft, typing) };
}

const sameText = (a: string, b: string) => a === b;
const showText = (value: string) => value;
const readKeywords = (draft: string) => draft.trim();

/** The keyword box: typing is searched after a pause; Search (or Enter) searches at once. */
export function useKeywordField(filters: DealFilters, update: UpdateFilters, endTyping: () => void) {
  const commit = useCallback(
    (q: string, typing: boolean) =>
      update((current) => withKeywords(current, q), typing ? { typing: 'q' } : {}),
    [update],
  );
  const { draft, setDraft, send } = useDraft(filters.q, {
    show: showText,
    read: readKeywords,
    same: sameText,
    commit,
  });
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send();
    endTyping();
  };
  return { draft, setDraft, search, endTyping };
}
