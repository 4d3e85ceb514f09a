import { Fragment } from 'react';
import type { SnippetPart } from '../../../contract/discovery';
import { cn } from '../../lib/cn';

/**
 * A search result's excerpt with the matched words marked. The parts are plain text the server cut
 * from the description: each is rendered as a text node (a `<mark>` for a match), never as HTML.
 */
export function DealSnippet({ parts, className }: { parts: readonly SnippetPart[]; className?: string }) {
  return (
    <p className={cn('break-words whitespace-pre-line', className)}>
      {parts.map((part, index) =>
        part.match ? (
          <mark key={index} className="rounded-sm bg-amber-100 px-0.5 font-medium text-slate-900">
            {part.text}
          </mark>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </p>
  );
}
