import type { Session } from '../../../contract/security';
import { NoticeAlert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ErrorRetry } from '../../components/ui/error-retry';
import { LoadingState } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { formatDateTime, formatRelativeTime } from '../../lib/time';
import { SecurityCard } from './security-card';
import { useSessionsCard } from './use-sessions-card';

/** Where the account is signed in: this device marked, the others can be signed out from here. */
export function SessionsCard() {
  const card = useSessionsCard();
  const list = card.sessions;
  const others = list.data?.filter((session) => !session.current).length ?? 0;

  return (
    <SecurityCard
      title="Sessions"
      description="The browsers and devices signed in to your account. Sign out any you do not recognize."
    >
      {card.notice && <NoticeAlert notice={card.notice} />}
      {list.isPending ? (
        <LoadingState label="Loading your sessions..." className="py-6" />
      ) : list.isError ? (
        <ErrorRetry detail={serverReason(list.error)} onRetry={list.refetch}>
          Your sessions could not be loaded.
        </ErrorRetry>
      ) : (
        <>
          <ul
            aria-label="Your sessions"
            className="divide-y divide-slate-100 rounded-xl border border-slate-200"
          >
            {list.data.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                ending={card.ending === session.id}
                onEnd={() => card.end(session.id)}
              />
            ))}
          </ul>
          {others > 0 && (
            <Button variant="outline" loading={card.endingOthers} onClick={card.endAllOthers}>
              {card.endingOthers ? 'Signing out...' : 'Sign out all other sessions'}
            </Button>
          )}
        </>
      )}
    </SecurityCard>
  );
}

function SessionRow({ session, ending, onEnd }: { session: Session; ending: boolean; onEnd: () => void }) {
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-0.5">
        <p className="flex flex-wrap items-center gap-2 font-medium break-words text-slate-900">
          {session.device}
          {session.current && <Badge tone="green">This device</Badge>}
        </p>
        <p className="text-sm break-words text-slate-600">
          {session.address ?? 'Unknown address'} · Signed in {formatDateTime(session.createdAt)} · Last
          active: {formatRelativeTime(session.lastSeenAt)}
        </p>
      </div>
      {!session.current && (
        <Button variant="outline" size="sm" className="shrink-0" loading={ending} onClick={onEnd}>
          End session<span className="sr-only"> on {session.device}</span>
        </Button>
      )}
    </li>
  );
}
