import type { ReactNode } from 'react';
import type { User } from '../../../contract/users';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import {
  BriefcaseIcon,
  CalendarIcon,
  ClockIcon,
  MailIcon,
  MapPinIcon,
  UserIcon,
} from '../../components/ui/icons';
import { formatCalendarDate, formatLongDate } from '../../lib/time';

/** The top of a user's public profile: picture, name, @username, 'Active User' and member since. */
export function UserProfileHeader({ user }: { user: User }) {
  const name = user.full_name || user.username;
  return (
    <Card className="overflow-hidden">
      <div
        aria-hidden="true"
        className="h-28 bg-gradient-to-br from-indigo-600 via-indigo-500 to-violet-500 sm:h-36"
      />
      <div className="flex flex-col gap-4 px-6 pb-6 sm:flex-row sm:items-end sm:gap-6 sm:px-8">
        <Avatar
          src={user.profile.profile_picture}
          name={name}
          size="xl"
          className="-mt-16 shadow-lg ring-4 sm:-mt-20"
        />
        <div className="min-w-0 flex-1 sm:pb-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="truncate text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{name}</h1>
            <Badge tone="green">
              <span className="h-1.5 w-1.5 rounded-full bg-emerald-500" />
              Active User
            </Badge>
          </div>
          <p className="mt-1 text-slate-500">@{user.username}</p>
        </div>
        <p className="flex items-center gap-1.5 text-sm text-slate-500 sm:pb-1">
          <CalendarIcon size={16} />
          Member since {formatLongDate(user.createdAt)}
        </p>
      </div>
    </Card>
  );
}

/**
 * The Profile Details tab: the always-present fields, then occupation, birth date and address when
 * present. The email, birth date and address are absent when their owner hides them from the viewer.
 */
export function UserProfileDetails({ user }: { user: User }) {
  const rows: Array<{ icon: ReactNode; label: string; value: string | null }> = [
    { icon: <UserIcon size={18} />, label: 'Username', value: user.username },
    { icon: <UserIcon size={18} />, label: 'Full Name', value: user.full_name },
  ];
  if (user.email) rows.push({ icon: <MailIcon size={18} />, label: 'Email', value: user.email });
  rows.push(
    { icon: <CalendarIcon size={18} />, label: 'Member Since', value: formatLongDate(user.createdAt) },
    { icon: <ClockIcon size={18} />, label: 'Last Updated', value: formatLongDate(user.updatedAt) },
  );
  // Optional details appear only when the user filled them in and lets the viewer see them.
  if (user.profile.occupation) {
    rows.push({ icon: <BriefcaseIcon size={18} />, label: 'Occupation', value: user.profile.occupation });
  }
  if (user.profile.date_of_birth) {
    rows.push({
      icon: <CalendarIcon size={18} />,
      label: 'Date of Birth',
      value: formatCalendarDate(user.profile.date_of_birth),
    });
  }
  if (user.profile.address) {
    rows.push({ icon: <MapPinIcon size={18} />, label: 'Address', value: user.profile.address });
  }
  return (
    <dl className="grid gap-x-8 gap-y-1 p-6 sm:grid-cols-2">
      {rows.map((row) => (
        // dt and dd sit directly in the row (the icon inside dt), as a description list requires.
        <div key={row.label} className="relative min-w-0 rounded-xl py-3 pr-2 pl-14">
          <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">
            <span className="absolute top-3.5 left-2 flex h-9 w-9 items-center justify-center rounded-lg bg-slate-100 text-slate-500">
              {row.icon}
            </span>
            {row.label}
          </dt>
          <dd className="mt-0.5 text-sm break-words text-slate-900">{row.value || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
