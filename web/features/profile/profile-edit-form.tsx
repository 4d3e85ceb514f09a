import { type FormEvent, useState } from 'react';
import { limits } from '../../../contract/limits';
import { profileUpdateSchema, type User } from '../../../contract/users';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CardContent, CardFooter } from '../../components/ui/card';
import { TextareaField, TextField } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { todayIsoDate } from '../../lib/time';
import { type ProfileFormValues, toProfileUpdate, useUpdateProfile } from './profile-api';

/** Edit Profile: username and email read-only; full name, date of birth, occupation and address editable. */
export function ProfileEditForm({
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
  // What the contract's schema refused at the last submit, by field.
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});
  const set = (field: keyof ProfileFormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWith(profileUpdateSchema, toProfileUpdate(values));
    setProblems(checked.ok ? {} : checked.problems);
    if (checked.ok) update.mutate(values, { onSuccess: onSaved });
  };

  const serverErrors = update.error instanceof ApiError ? (update.error.fieldErrors ?? {}) : {};
  const fieldErrors = { ...serverErrors, ...problems };

  return (
    <form onSubmit={submit}>
      <CardContent className="space-y-5">
        {update.isError && (
          <Alert variant="error" detail={serverReason(update.error)}>
            Failed to update profile.
          </Alert>
        )}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Username"
            hint="Your username cannot be changed."
            value={user.username}
            readOnly
          />
          <TextField
            label="Email"
            hint="Your email cannot be changed."
            type="email"
            value={user.email}
            readOnly
          />
        </div>
        <TextField
          label="Full Name"
          error={fieldErrors.full_name}
          name="full_name"
          autoComplete="name"
          required
          maxLength={limits.fullName.max}
          value={values.full_name}
          onChange={set('full_name')}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Date of Birth"
            error={fieldErrors.date_of_birth}
            type="date"
            name="date_of_birth"
            max={todayIsoDate()}
            value={values.date_of_birth}
            onChange={set('date_of_birth')}
          />
          <TextField
            label="Occupation"
            error={fieldErrors.occupation}
            name="occupation"
            autoComplete="organization-title"
            maxLength={limits.profileText.max}
            value={values.occupation}
            onChange={set('occupation')}
            placeholder="e.g. Business consultant"
          />
        </div>
        <TextareaField
          label="Address"
          error={fieldErrors.address}
          name="address"
          autoComplete="street-address"
          rows={2}
          maxLength={limits.profileText.max}
          value={values.address}
          onChange={set('address')}
          placeholder="Street, city, country"
        />
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
