import { type ReactNode, useState } from 'react';
import type { User } from '../../../contract/users';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { PencilIcon } from '../../components/ui/icons';
import { formatCalendarDate } from '../../lib/time';
import { useTimedMessage } from '../../lib/use-timed-message';
import { ProfileEditForm } from './profile-edit-form';

/** The information card of My Profile, with its Edit Profile mode. */
export function ProfileInfoCard({ user }: { user: User }) {
  const [editing, setEditing] = useState(false);
  const [saved, showSaved] = useTimedMessage<string>(5000);

  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <CardTitle>{editing ? 'Edit Profile' : 'Profile Information'}</CardTitle>
          <CardDescription>
            {editing
              ? 'Update your personal details.'
              : 'Your personal details. Choose under Privacy who else sees them.'}
          </CardDescription>
        </div>
        {!editing && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              showSaved(null);
              setEditing(true);
            }}
          >
            <PencilIcon size={16} />
            Edit Profile
          </Button>
        )}
      </CardHeader>
      {editing ? (
        <ProfileEditForm
          user={user}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            showSaved('Profile updated successfully!');
          }}
        />
      ) : (
        <CardContent>
          {saved && (
            <Alert variant="success" className="mb-5">
              {saved}
            </Alert>
          )}
          <dl className="divide-y divide-slate-100">
            <InfoRow label="Username" value={user.username} />
            <InfoRow label="Email" value={user.email} />
            <InfoRow label="Full Name" value={user.full_name} />
            <InfoRow
              label="Date of Birth"
              value={user.profile.date_of_birth ? formatCalendarDate(user.profile.date_of_birth) : null}
            />
            <InfoRow label="Occupation" value={user.profile.occupation} />
            <InfoRow label="Address" value={user.profile.address} />
          </dl>
        </CardContent>
      )}
    </Card>
  );
}

function InfoRow({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="grid gap-1 py-3.5 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="text-sm break-words text-slate-900 sm:col-span-2">
        {value || <span className="text-slate-500 italic">Not provided</span>}
      </dd>
    </div>
  );
}
