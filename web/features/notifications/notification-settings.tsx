import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import {
  type EmailedNotificationKind,
  emailedKindLabels,
  emailedNotificationKinds,
  type NotificationPreferences,
} from '../../../contract/notifications';
import { type Notice, NoticeAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { LoadFailedCard } from '../../components/ui/error-retry';
import { LoadingState } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { useTimedMessage } from '../../lib/use-timed-message';
import {
  notificationKeys,
  saveNotificationPreferences,
  useNotificationPreferences,
} from './notifications-api';

/** The anchor of this section: the mails link to /profile#notifications. */
export const notificationSettingsAnchor = 'notifications';

/**
 * My Profile's notification settings: one checkbox per kind of notification that is also mailed to a
 * user who is away, saved together.
 */
export function NotificationSettings() {
  const preferences = useNotificationPreferences();
  const titleId = useId();
  const section = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  const loaded = preferences.isSuccess;

  // The page loads after the browser looked for the anchor: go there once the section is drawn.
  useEffect(() => {
    if (loaded && hash === `#${notificationSettingsAnchor}`) section.current?.scrollIntoView();
  }, [loaded, hash]);

  return (
    <section id={notificationSettingsAnchor} ref={section} aria-labelledby={titleId} className="scroll-mt-20">
      <Card>
        <CardHeader>
          <CardTitle id={titleId}>Notification settings</CardTitle>
          <CardDescription>
            Every notification shows under the bell. Choose which are also emailed to you while you are away.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {preferences.data ? (
            <PreferencesForm initial={preferences.data} />
          ) : preferences.isError ? (
            <LoadFailedCard title="Failed to load notification settings" onRetry={preferences.refetch} />
          ) : (
            <LoadingState label="Loading notification settings..." />
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function PreferencesForm({ initial }: { initial: NotificationPreferences }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(initial.email);
  const [saving, setSaving] = useState(false);
  const [notice, showNotice] = useTimedMessage<Notice>(5000);

  const toggle = (kind: EmailedNotificationKind, on: boolean) => {
    showNotice(null);
    setEmail((current) => ({ ...current, [kind]: on }));
  };

  const save = async () => {
    setSaving(true);
    showNotice(null);
    try {
      const saved = await saveNotificationPreferences({ email });
      queryClient.setQueryData(notificationKeys.preferences(), saved);
      setEmail(saved.email);
      showNotice({ tone: 'success', text: 'Notification settings saved.' });
    } catch (error) {
      console.error('Saving the notification settings failed', error);
      showNotice({
        tone: 'error',
        text: 'Failed to save notification settings.',
        detail: serverReason(error),
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      className="space-y-4"
    >
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">Email me when</legend>
        <div className="space-y-1">
          {emailedNotificationKinds.map((kind) => (
            <label
              key={kind}
              className="flex min-h-10 cursor-pointer items-center gap-3 rounded-lg px-2 text-sm text-slate-700 hover:bg-slate-50"
            >
              <input
                type="checkbox"
                name={kind}
                checked={email[kind]}
                onChange={(event) => toggle(kind, event.target.checked)}
                className="h-4 w-4 shrink-0 accent-indigo-600"
              />
              {emailedKindLabels[kind]}
            </label>
          ))}
        </div>
      </fieldset>
      {notice && <NoticeAlert notice={notice} />}
      <Button type="submit" loading={saving}>
        {saving ? 'Saving...' : 'Save settings'}
      </Button>
    </form>
  );
}
