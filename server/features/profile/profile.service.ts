import type { PrivacyUpdate, ProfileChanges } from '../../../contract/users';
import type { Db } from '../../db/client';
import type { Transact } from '../../db/transaction';
import { notFound } from '../../lib/errors';
import { normalizeProfilePicture } from '../../lib/images';
import type { RateLimits } from '../../lib/rate-limits';
import { randomToken } from '../../lib/secrets';
import { presentOwnProfile, presentPrivacy, profilePicturePath } from '../users/users.presenter';
import type { UsersService } from '../users/users.service';
import { profilePicturesRepository } from './profile.repository';

/** The signed-in user's own profile and picture. */
export class ProfileService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      users: UsersService;
      rateLimits: RateLimits;
    },
  ) {}

  /** One more picture upload of this user; 429 beyond the limit. */
  countUpload(userId: number) {
    return this.deps.rateLimits.consume(['pictureUploadsPerUser', String(userId)]);
  }

  async get(userId: number) {
    const row = await this.deps.users.findAccountById(userId);
    if (!row) throw notFound('User not found');
    return presentOwnProfile(row);
  }

  async update(userId: number, changes: ProfileChanges) {
    const row = await this.deps.users.updateAccount(userId, {
      fullName: changes.full_name,
      dateOfBirth: changes.date_of_birth,
      address: changes.address,
      occupation: changes.occupation,
    });
    if (!row) throw notFound('User not found');
    return { message: 'Profile updated successfully!', user: presentOwnProfile(row) };
  }

  /** Who sees the user's email, date of birth and address; settings left out keep their value. */
  async updatePrivacy(userId: number, changes: PrivacyUpdate) {
    const row = await this.deps.users.updatePrivacy(userId, changes);
    if (!row) throw notFound('User not found');
    return presentPrivacy(row);
  }

  /** Replaces the user's picture with the re-encoded upload; the old picture is deleted with it. */
  async replacePicture(userId: number, upload: Buffer) {
    const picture = await normalizeProfilePicture(upload);
    const id = randomToken(12);
    await this.deps.transact(async (tx) => {
      const user = await this.deps.users.lockAccount(tx, userId);
      if (!user) throw notFound('User not found');
      await profilePicturesRepository.insert(tx, {
        id,
        userId,
        contentType: picture.contentType,
        bytes: picture.bytes,
      });
      await this.deps.users.updateAccount(userId, { pictureId: id }, tx);
      if (user.pictureId) await profilePicturesRepository.delete(tx, user.pictureId);
    });
    return { success: true as const, profilePictureUrl: profilePicturePath(id) };
  }

  async removePicture(userId: number) {
    await this.deps.transact(async (tx) => {
      const user = await this.deps.users.lockAccount(tx, userId);
      if (!user) throw notFound('User not found');
      if (!user.pictureId) return;
      await this.deps.users.updateAccount(userId, { pictureId: null }, tx);
      await profilePicturesRepository.delete(tx, user.pictureId);
    });
    return { success: true as const, message: 'Profile picture removed.' };
  }

  async picture(id: string) {
    const row = await profilePicturesRepository.findById(this.deps.db, id);
    if (!row) throw notFound('Picture not found.');
    return row;
  }
}
