import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ActivityEntry as ContractActivityEntry } from '../../../contract/deals';
import { Badge } from '../../components/ui/badge';
import { EmptyState } from '../../components/ui/empty-state';
import { BriefcaseIcon, CalendarIcon } from '../../components/ui/icons';
import { LoadingState } from '../../components/ui/spinner';
import { api, segment } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { useDealsFeed } from '../../lib/socket-context';
import { formatDate } from '../../lib/time';
import { dealQueryKeys } from './deals-cache';

/** A deal on a user's Activity tab with the part that user plays in it (GET /deals/activity/{username}). */
export type ActivityEntry = ContractActivityEntry;

type UserActivity = { entries: ActivityEntry[]; isLoading: boolean };

/**
 * The deals a user takes part in as creator, participant (joined dealer) or dealmaker, newest first.
 * Kept under the deals key, so whatever reloads deals reloads this too. If it cannot load, the
 * list is empty (spec §8).
 */
export function useUserActivity(username: string): UserActivity {
  const activity = useQuery({
    queryKey: [...dealQueryKeys.all, 'activity', username.toLowerCase()],
    queryFn: ({ signal }) => api.get<ActivityEntry[]>(`/deals/activity/${segment(username)}`, { signal }),
    enabled: username.length > 0,
  });
  return { entries: activity.data ?? [], isLoading: activity.isPending && username.length > 0 };
}

const roleBadges = {
  creator: { label: 'Creator', tone: 'indigo' },
  counterpart: { label: 'Participant', tone: 'blue' },
  dealmaker: { label: 'Dealmaker', tone: 'amber' },
} as const;

export function UserActivityTab({ username }: { username: string }) {
  const { entries, isLoading } = useUserActivity(username);
  useDealsFeed();

  if (isLoading) return <LoadingState label="Loading activity..." />;
  if (entries.length === 0) {
    return (
      <EmptyState
        icon={<BriefcaseIcon size={28} />}
        title="No activity yet"
        description="This user hasn't participated in any deals yet."
      />
    );
  }
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {entries.map((entry) => {
        const role = roleBadges[entry.role];
        return (
          <li key={entry.id} className="rounded-xl border border-slate-200 p-5">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 className="font-semibold text-slate-900">
                <Link to={`/deals/${entry.id}`} className="hover:text-indigo-700 hover:underline">
                  {entry.title}
                </Link>
              </h3>
              <div className="flex flex-wrap gap-1.5">
                <Badge tone={role.tone}>{role.label}</Badge>
                {entry.is_completed && <Badge tone="green">Completed</Badge>}
              </div>
            </div>
            <p className="mt-2 line-clamp-2 text-sm text-slate-500">{entry.description}</p>
            <div className="mt-4 flex items-center justify-between text-sm">
              <span className="font-semibold text-slate-900">{formatMoney(entry.budget)}</span>
              <span className="inline-flex items-center gap-1.5 text-slate-500">
                <CalendarIcon size={14} />
                {formatDate(entry.createdAt)}
              </span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** The Activity tab's label, with the number of deals. */
export function UserActivityTabLabel({ username }: { username: string }) {
  const { entries, isLoading } = useUserActivity(username);
  return (
    <>
      Activity
      {!isLoading && (
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600">
          {entries.length}
        </span>
      )}
    </>
  );
}
