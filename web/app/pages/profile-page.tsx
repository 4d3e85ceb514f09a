import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { AlertCircleIcon } from '../../components/ui/icons';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useMyProfile } from '../../features/profile/profile-api';
import { ProfileInfoCard } from '../../features/profile/profile-info-card';
import { ProfilePictureCard } from '../../features/profile/profile-picture-card';

export function ProfilePage() {
  const profile = useMyProfile();

  return (
    <PageContainer>
      <PageHeader
        title="My Profile"
        description="Manage your picture, your personal details and your password."
      />
      {profile.data ? (
        <div className="grid items-start gap-6 lg:grid-cols-[320px_1fr]">
          <ProfilePictureCard user={profile.data} />
          <ProfileInfoCard user={profile.data} />
        </div>
      ) : profile.isError ? (
        <Card>
          <EmptyState
            icon={<AlertCircleIcon size={28} />}
            title="Your profile could not be loaded"
            description="Please check your connection and try again."
            action={<Button onClick={() => profile.refetch()}>Try again</Button>}
          />
        </Card>
      ) : (
        <LoadingState label="Loading your profile..." />
      )}
    </PageContainer>
  );
}
