import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { limits } from '../../../contract/limits';
import type { OwnProfile, Privacy, User } from '../../../contract/users';
import { api } from '../../lib/api';
import { currentUserQueryKey, fetchCurrentUser } from '../auth';
import { usersQueryKey } from '../users';

/** The signed-in user's own record (the same cache entry the navigation bar reads). */
export const useMyProfile = () => useQuery({ queryKey: currentUserQueryKey, queryFn: fetchCurrentUser });

/** The fields the profile form edits (spec §3 Profile update payload). */
export type ProfileFormValues = {
  full_name: string;
  date_of_birth: string;
  address: string;
  occupation: string;
};

export function toProfileUpdate(values: ProfileFormValues) {
  return {
    full_name: values.full_name.trim(),
    password_reset_token: null,
    date_of_birth: values.date_of_birth || null,
    address: values.address.trim(),
    occupation: values.occupation.trim(),
  };
}

/** Client-side checks before an upload (spec §5): an image, at most 5 MB. Null when the file is fine. */
export function pictureFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return 'Please select an image file';
  if (file.size > limits.profilePicture.maxBytes) return 'File size should be less than 5MB';
  return null;
}

function useProfileMutation<Input, Answer>(
  mutationFn: (input: Input) => Promise<Answer>,
  applyToUser: (user: User, answer: Answer) => User,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (answer) => {
      queryClient.setQueryData<User>(currentUserQueryKey, (user) =>
        user ? applyToUser(user, answer) : user,
      );
      // Other screens show the same user (the directory, the public profile): let them reload it.
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
  });
}

export const useUpdateProfile = () =>
  useProfileMutation(
    (values: ProfileFormValues) =>
      api.post<{ message: string; user: User }>('/user-profile', toProfileUpdate(values)),
    (_user, answer) => answer.user,
  );

export const useUploadPicture = () =>
  useProfileMutation(
    (file: File) => {
      const form = new FormData();
      form.append('profilePicture', file);
      return api.post<{ success: true; profilePictureUrl: string }>('/user-profile/upload-picture', form);
    },
    (user, answer) => ({ ...user, profile: { ...user.profile, profile_picture: answer.profilePictureUrl } }),
  );

export const useRemovePicture = () =>
  useProfileMutation(
    () => api.delete<{ success: true }>('/user-profile/profile-picture'),
    (user) => ({ ...user, profile: { ...user.profile, profile_picture: null } }),
  );

/** Who sees the user's email, date of birth and address: part of the own profile (GET /user-profile). */
export const privacyQueryKey = ['user-privacy'] as const;

export function usePrivacySettings() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: privacyQueryKey,
    queryFn: async ({ signal }) => (await api.get<OwnProfile>('/user-profile', { signal })).privacy,
    // The own profile the page has loaded already carries them; the sign-in answer's copy does not.
    initialData: () => queryClient.getQueryData<Partial<OwnProfile>>(currentUserQueryKey)?.privacy,
    initialDataUpdatedAt: () => queryClient.getQueryState(currentUserQueryKey)?.dataUpdatedAt,
  });
}

/** PUT /user-profile/privacy; the answer (all three settings) replaces the cached ones. */
export function useSavePrivacy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (privacy: Privacy) => api.put<Privacy>('/user-profile/privacy', privacy),
    onSuccess: (privacy) => {
      queryClient.setQueryData(privacyQueryKey, privacy);
      queryClient.setQueryData<Partial<OwnProfile>>(currentUserQueryKey, (user) =>
        user?.privacy ? { ...user, privacy } : user,
      );
    },
  });
}
