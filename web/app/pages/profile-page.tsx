import { LoadFailedCard } from '../../components/ui/error-retry';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { NotificationSettings } from '../../features/notifications';
import { PrivacyCard, ProfileInfoCard, ProfilePictureCard, useMyProfile } from '../../features/profile';
import { SecuritySection } from '../../features/security';

export function ProfilePage() {
  const profile = useMyProfile();

  return (
    <PageContainer>
      <PageHeader
        title="My Profile"
        description="Manage your picture, your personal details, your password and your notifications."
      />
      {profile.data ? (
        <div className="grid items-start gap-6 lg:grid-cols-[320px_1fr]">
          <ProfilePictureCard user={profile.data} />
          <div className="grid min-w-0 gap-6">
            <ProfileInfoCard user={profile.data} />
            <PrivacyCard />
            <NotificationSettings />
            <SecuritySection />
          </div>
        </div>
      ) : profile.isError ? (
        <LoadFailedCard title="Your profile could not be loaded" onRetry={profile.refetch} />
      ) : (
        <LoadingState label="Loading your profile..." />
      )}
    </PageContainer>
  );
}
