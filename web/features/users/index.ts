/** The member directory and other users' public profiles. */

// A member's card in the directory.
export { UserCard } from './user-card';
// One user's public profile page parts: the header and the Profile Details tab.
export { UserProfileDetails, UserProfileHeader } from './user-profile';
// The directory, its live search, one user's record, and the key profile edits invalidate.
export { usersQueryKey, useUser, useUserDirectory, useUserSearch } from './users-api';
