import { type FormEvent, type ReactNode, useState } from 'react';
import { limits } from '../../../contract/limits';
import type { User } from '../../../contract/users';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../components/ui/card';
import { PencilIcon } from '../../components/ui/icons';
import { Field, Input, Textarea } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { formatCalendarDate, todayIsoDate } from '../../lib/time';
import { useTimedMessage } from '../../lib/use-timed-message';
import { type ProfileFormValues, useUpdateProfile } from './profile-api';

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
            {editing ? 'Update your personal details.' : 'Your personal details as other members see them.'}
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
        {value || <span className="text-slate-400 italic">Not provided</span>}
      </dd>
    </div>
  );
}

function ProfileEditForm({
  user,
  onCancel,
  onSaved,
}: {
  user: User;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const update = useUpdateProfile();
  const [values, setValues] = useState<ProfileFormValues>({
    full_name: user.full_name,
    date_of_birth: user.profile.date_of_birth ?? '',
    occupation: user.profile.occupation ?? '',
    address: user.profile.address ?? '',
  });
  const set = (field: keyof ProfileFormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate(values, { onSuccess: onSaved });
  };

  const fieldErrors = update.error instanceof ApiError ? (update.error.fieldErrors ?? {}) : {};

  return (
    <form onSubmit={submit}>
      <CardContent className="space-y-5">
        {update.isError && (
          <Alert
            variant="error"
            detail={update.error instanceof ApiError ? update.error.serverMessage : undefined}
          >
            Failed to update profile.
          </Alert>
        )}
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Username" hint="Your username cannot be changed.">
            {(control) => <Input {...control} value={user.username} readOnly />}
          </Field>
          <Field label="Email" hint="Your email cannot be changed.">
            {(control) => <Input {...control} type="email" value={user.email} readOnly />}
          </Field>
        </div>
        <Field label="Full Name" error={fieldErrors.full_name}>
          {(control) => (
            <Input
              {...control}
              name="full_name"
              autoComplete="name"
              required
              maxLength={limits.fullName.max}
              value={values.full_name}
              onChange={set('full_name')}
            />
          )}
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Date of Birth" error={fieldErrors.date_of_birth}>
            {(control) => (
              <Input
                {...control}
                type="date"
                name="date_of_birth"
                max={todayIsoDate()}
                value={values.date_of_birth}
                onChange={set('date_of_birth')}
              />
            )}
          </Field>
          <Field label="Occupation" error={fieldErrors.occupation}>
            {(control) => (
              <Input
                {...control}
                name="occupation"
                autoComplete="organization-title"
                maxLength={limits.profileText.max}
                value={values.occupation}
                onChange={set('occupation')}
                placeholder="e.g. Business consultant"
              />
            )}
          </Field>
        </div>
        <Field label="Address" error={fieldErrors.address}>
          {(control) => (
            <Textarea
              {...control}
              name="address"
              autoComplete="street-address"
              rows={2}
              maxLength={limits.profileText.max}
              value={values.address}
              onChange={set('address')}
              placeholder="Street, city, country"
            />
          )}
        </Field>
      </CardContent>
      <CardFooter>
        <Button variant="outline" onClick={onCancel} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </CardFooter>
    </form>
  );
}
