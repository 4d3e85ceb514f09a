import { useEffect, useId, useRef } from 'react';
import { Alert, type Notice, NoticeAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useTimedMessage } from '../../lib/use-timed-message';
import { useAuth } from '../auth';
import { downloadTextFile, recoveryCodesFileName, recoveryCodesText } from './recovery-codes';

/**
 * New recovery codes, shown once: copy them, download them as a text file, then Done. Focus moves here
 * when they appear, since the form that asked for them is gone.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { user } = useAuth();
  const account = { username: user?.username ?? 'account' };
  const [notice, showNotice] = useTimedMessage<Notice>(4000);
  const titleId = useId();
  const title = useRef<HTMLParagraphElement>(null);
  useEffect(() => title.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      showNotice({ tone: 'success', text: 'The recovery codes are copied.' });
    } catch {
      showNotice({ tone: 'error', text: 'Copying failed: download them or write them down instead.' });
    }
  };
  const download = () =>
    downloadTextFile(recoveryCodesFileName(account), recoveryCodesText(codes, account, new Date()));

  return (
    <section className="space-y-4" aria-labelledby={titleId}>
      <p
        id={titleId}
        ref={title}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Your recovery codes
      </p>
      <Alert
        variant="info"
        detail="Each code signs you in once if you lose your authenticator app or passkey."
      >
        Save them now: they are shown only once.
      </Alert>
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-x-6 gap-y-1.5 rounded-xl bg-slate-50 px-4 py-3 font-mono text-sm text-slate-900 min-[400px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      {notice && <NoticeAlert notice={notice} />}
      <div className="flex flex-wrap gap-3">
        <Button variant="outline" onClick={() => void copy()}>
          Copy codes
        </Button>
        <Button variant="outline" onClick={download}>
          Download codes
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </section>
  );
}
