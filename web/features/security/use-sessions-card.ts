import type { Notice } from '../../components/ui/alert';
import { serverReason } from '../../lib/api';
import { useTimedMessage } from '../../lib/use-timed-message';
import { useEndOtherSessions, useEndSession, useSessions } from './security-api';

/** The sessions list: end one other session, or all of them but this one. */
export function useSessionsCard() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [notice, showNotice] = useTimedMessage<Notice>(6000);

  const end = (id: string) =>
    endOne.mutate(id, {
      onSuccess: () => showNotice({ tone: 'success', text: 'The session was ended.' }),
      onError: (error) =>
        showNotice({ tone: 'error', text: 'The session was not ended.', detail: serverReason(error) }),
    });
  const endAllOthers = () =>
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) =>
        showNotice({
          tone: 'success',
          text:
            ended === 1 ? 'One other session was signed out.' : `${ended} other sessions were signed out.`,
        }),
      onError: (error) =>
        showNotice({ tone: 'error', text: 'The sessions were not ended.', detail: serverReason(error) }),
    });

  return {
    sessions,
    notice,
    end,
    /** The session being ended right now, if any. */
    ending: endOne.isPending ? endOne.variables : undefined,
    endAllOthers,
    endingOthers: endOthers.isPending,
  };
}
