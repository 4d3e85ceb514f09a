import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { User } from '../../../contract/users';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import {
  AlertCircleIcon,
  ArrowLeftIcon,
  BriefcaseIcon,
  CalendarIcon,
  ClockIcon,
  MailIcon,
  MapPinIcon,
  UserIcon,
} from '../../components/ui/icons';
import { DocumentTitle, PageContainer } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { Tabs } from '../../components/ui/tabs';
import { UserActivityTab, UserActivityTabLabel } from '../../features/users/user-activity-tab';
import { UserReviewsTab } from '../../features/users/user-reviews-tab';
import { useUser } from '../../features/users/users-api';
import { ApiError } from '../../lib/api';
import { formatCalendarDate, formatLongDate } from '../../lib/time';

type ProfileTab = 'details' | 'activity' | 'reviews';
const profileTabs: ProfileTab[] = ['details', 'activity', 'reviews'];

const backToUsers = (
  <Link to="/users" className={buttonClasses({ variant: 'outline' })}>
    <ArrowLeftIcon size={16} />
    Back to Users
  </Link>
);

export function UserProfilePage() {
  const { username = '' } = useParams();
  const user = useUser(username);
  const [searchParams, setSearchParams] = useSearchParams();
  const requestedTab = searchParams.get('tab') as ProfileTab | null;
  const tab: ProfileTab = requestedTab && profileTabs.includes(requestedTab) ? requestedTab : 'details';

  if (user.isPending) {
    return (
      <PageContainer>
        <LoadingState label="Loading profile..." />
      </PageContainer>
    );
  }

  if (user.isError) {
    const notFound = user.error instanceof ApiError && user.error.status === 404;
    return (
      <PageContainer>
        <DocumentTitle title={notFound ? 'User not found' : 'Users'} />
        <Card>
          {notFound ? (
            <EmptyState
              icon={<UserIcon size={28} />}
              title="User not found"
              description={`There is no member with the username @${username}.`}
              action={backToUsers}
            />
          ) : (
            <EmptyState
              icon={<AlertCircleIcon size={28} />}
              title="Failed to fetch user details"
              description="Something went wrong while loading this profile. Please try again."
              action={
                <div className="flex flex-wrap justify-center gap-3">
                  {backToUsers}
                  <Button onClick={() => user.refetch()}>Try again</Button>
                </div>
              }
            />
          )}
        </Card>
      </PageContainer>
    );
  }

  const profile = user.data;
  const name = profile.full_name || profile.username;

  return (
    <PageContainer>
      <DocumentTitle title={name} />
      <Link
        to="/users"
        className="mb-6 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800"
      >
        <ArrowLeftIcon size={16} />
        All users
      </Link>

      <Card className="overflow-hidden">
        <div
          aria-hidden="true"
          className="h-28 bg-gradient-to-br from-indigo-600 via-indigo-500 to-violet-500 sm:h-36"
        />
        <div className="flex flex-col gap-4 px-6 pb-6 sm:flex-row sm:items-end sm:gap-6 sm:px-8">
          <Avatar
            src={profile.profile.profile_picture}
            name={name}
            size="xl"
            className="-mt-16 shadow-lg ring-4 sm:-mt-20"
          />
          <div className="min-w-0 flex-1 sm:pb-1">
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="truncate text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
                {name}
              </h1>
              <Badge tone="green">
                <span className="h-1.5 w-1.5 rounded-full bg-emerald-500" />
                Active User
              </Badge>
            </div>
            <p className="mt-1 text-slate-500">@{profile.username}</p>
          </div>
          <p className="flex items-center gap-1.5 text-sm text-slate-500 sm:pb-1">
            <CalendarIcon size={16} />
            Member since {formatLongDate(profile.createdAt)}
          </p>
        </div>
      </Card>

      <Card className="mt-6">
        <Tabs<ProfileTab>
          label="Profile sections"
          value={tab}
          onValueChange={(next) =>
            setSearchParams(next === 'details' ? {} : { tab: next }, {
              replace: true,
              preventScrollReset: true,
            })
          }
          listClassName="px-4 sm:px-6"
          tabs={[
            { value: 'details', label: 'Profile Details', content: <ProfileDetails user={profile} /> },
            {
              value: 'activity',
              label: <UserActivityTabLabel username={profile.username} />,
              content: (
                <div className="p-6">
                  <UserActivityTab username={profile.username} />
                </div>
              ),
            },
            {
              value: 'reviews',
              label: 'Reviews',
              content: (
                <div className="p-6">
                  <UserReviewsTab username={profile.username} />
                </div>
              ),
            },
          ]}
        />
      </Card>
    </PageContainer>
  );
}

function ProfileDetails({ user }: { user: User }) {
  const rows: Array<{ icon: ReactNode; label: string; value: string | null }> = [
    { icon: <UserIcon size={18} />, label: 'Username', value: user.username },
    { icon: <UserIcon size={18} />, label: 'Full Name', value: user.full_name },
    { icon: <MailIcon size={18} />, label: 'Email', value: user.email },
    { icon: <CalendarIcon size={18} />, label: 'Member Since', value: formatLongDate(user.createdAt) },
    { icon: <ClockIcon size={18} />, label: 'Last Updated', value: formatLongDate(user.updatedAt) },
  ];
  // Optional details appear only when the user filled them in.
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
        <div key={row.label} className="flex items-start gap-3 rounded-xl px-2 py-3">
          <span className="mt-0.5 flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500">
            {row.icon}
          </span>
          <div className="min-w-0">
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{row.label}</dt>
            <dd className="mt-0.5 text-sm break-words text-slate-900">{row.value || '—'}</dd>
          </div>
        </div>
      ))}
    </dl>
  );
}
