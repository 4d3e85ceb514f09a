import { Link, useParams, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { AlertCircleIcon, ArrowLeftIcon, UserIcon } from '../../components/ui/icons';
import { DocumentTitle, PageContainer } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { Tabs } from '../../components/ui/tabs';
import { UserActivityTab, UserActivityTabLabel } from '../../features/deals';
import { UserReviewsTab } from '../../features/reviews';
import { UserProfileDetails, UserProfileHeader, useUser } from '../../features/users';
import { ApiError } from '../../lib/api';

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

      <UserProfileHeader user={profile} />

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
            { value: 'details', label: 'Profile Details', content: <UserProfileDetails user={profile} /> },
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
