import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';

/** A deal in a grid of cards (Deals page, Dealmaker Panel): its title and a badge, then the rest. */
export function DealTile({
  title,
  href,
  badge,
  note,
  children,
}: {
  title: string;
  /** The deal's page: the title links there. */
  href?: string;
  badge: ReactNode;
  /** Beside the badge, e.g. the viewer's unread messages on the deal. */
  note?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <li className="flex min-w-0">
      <article
        aria-labelledby={titleId}
        className="flex w-full flex-col rounded-2xl border border-slate-200/80 bg-white p-5 shadow-sm transition hover:shadow-md"
      >
        <div className="flex items-start justify-between gap-3">
          <h2 id={titleId} className="min-w-0 font-semibold break-words text-slate-900">
            {href ? (
              <Link
                to={href}
                className="rounded hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
              >
                {title}
              </Link>
            ) : (
              title
            )}
          </h2>
          <div className="flex shrink-0 flex-col items-end gap-1.5">
            {badge}
            {note}
          </div>
        </div>
        {children}
      </article>
    </li>
  );
}
