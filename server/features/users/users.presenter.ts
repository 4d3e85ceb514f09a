import type { OwnProfile, OwnUser, Privacy, User, Visibility } from '../../../contract/users';
import type { UserRow } from '../../db/schema';

export const profilePicturePath = (pictureId: string) => `/uploads/profile-pictures/${pictureId}.webp`;

/** How the viewer stands to the user shown: the user themselves, someone they share a deal with, anyone else. */
export type Relationship = 'self' | 'deal-partner' | 'stranger';

/**
 * The user as they see themselves (spec §3): everything, never a hash, a token or a verification key.
 * The sign-in answer and the own profile use it; anyone else gets `presentUserTo`.
 */
export function presentUser(row: UserRow): OwnUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    full_name: row.fullName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    profile: {
      profile_picture: row.pictureId ? profilePicturePath(row.pictureId) : null,
      date_of_birth: row.dateOfBirth,
      address: row.address,
      occupation: row.occupation,
    },
  };
}

/** The own profile: the whole record and who may see which detail. */
export function presentOwnProfile(row: UserRow): OwnProfile {
  return { ...presentUser(row), privacy: presentPrivacy(row) };
}

export function presentPrivacy(row: UserRow): Privacy {
  // The database's CHECK constraints hold these columns to the three values.
  return {
    email: row.emailVisibility as Visibility,
    dateOfBirth: row.dateOfBirthVisibility as Visibility,
    address: row.addressVisibility as Visibility,
  };
}

function mayView(visibility: string, relationship: Relationship): boolean {
  if (relationship === 'self' || visibility === 'everyone') return true;
  return visibility === 'deal-partners' && relationship === 'deal-partner';
}

/**
 * The user as `relationship` may see them (DESIGN.md §5, Privacy): a hidden detail is absent, the email's
 * key left out and the date of birth or address null, exactly as a detail the user never filled in.
 */
export function presentUserTo(row: UserRow, relationship: Relationship): User {
  const { email, ...user } = presentUser(row);
  return {
    ...user,
    ...(mayView(row.emailVisibility, relationship) ? { email } : {}),
    profile: {
      ...user.profile,
      date_of_birth: mayView(row.dateOfBirthVisibility, relationship) ? row.dateOfBirth : null,
      address: mayView(row.addressVisibility, relationship) ? row.address : null,
    },
  };
}
