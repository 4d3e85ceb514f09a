import type { User } from '../../../contract/users';
import type { UserRow } from '../../db/schema';

export const profilePicturePath = (pictureId: string) => `/uploads/profile-pictures/${pictureId}.webp`;

/** The public shape of a user (spec §3): never a hash, a token or a verification key. */
export function presentUser(row: UserRow): User {
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
