import { useId } from 'react';
import { type Privacy, type PrivacyField, type Visibility, visibilities } from '../../../contract/users';
import { NoticeAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { LoadFailedCard } from '../../components/ui/error-retry';
import { Field } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { usePrivacySettings } from './profile-api';
import { usePrivacyForm } from './use-privacy-form';

const visibilityLabels: Record<Visibility, string> = {
  everyone: 'Everyone',
  'deal-partners': 'People I share a deal with',
  'only-me': 'Only me',
};

const fieldLabels: Record<PrivacyField, string> = {
  email: 'Email',
  dateOfBirth: 'Date of Birth',
  address: 'Address',
};

/** My Profile's Privacy card: who sees the email, date of birth and address. */
export function PrivacyCard() {
  const settings = usePrivacySettings();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <Card>
        <CardHeader>
          <CardTitle id={titleId}>Privacy</CardTitle>
          <CardDescription>
            Choose who sees your email, date of birth and address. The people you share a deal with are the
            creator, counterpart and dealmaker of any deal you take part in.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {settings.data ? (
            <PrivacyForm initial={settings.data} />
          ) : settings.isError ? (
            <LoadFailedCard title="Failed to load privacy settings" onRetry={settings.refetch} />
          ) : (
            <LoadingState label="Loading privacy settings..." />
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function PrivacyForm({ initial }: { initial: Privacy }) {
  const { choices, choose, submit, saving, notice } = usePrivacyForm(initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="space-y-4"
    >
      <div className="grid gap-4">
        {(Object.keys(fieldLabels) as PrivacyField[]).map((field) => (
          <Field key={field} label={fieldLabels[field]}>
            {({ invalid: _invalid, ...control }) => (
              <select
                {...control}
                name={field}
                value={choices[field]}
                onChange={(event) => choose(field, event.target.value as Visibility)}
                // 44 px on phones, for a finger; the desktop height of the other inputs from sm up.
                className="block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none sm:h-10 sm:max-w-xs"
              >
                {visibilities.map((visibility) => (
                  <option key={visibility} value={visibility}>
                    {visibilityLabels[visibility]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </div>
      {notice && <NoticeAlert notice={notice} />}
      <Button type="submit" loading={saving}>
        {saving ? 'Saving...' : 'Save privacy settings'}
      </Button>
    </form>
  );
}
