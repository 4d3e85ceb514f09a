import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { profilePictures } from '../../db/schema';

export const profilePicturesRepository = {
  async findById(db: DbOrTx, id: string) {
    const [row] = await db.select().from(profilePictures).where(eq(profilePictures.id, id));
    return row;
  },

  async insert(db: DbOrTx, values: typeof profilePictures.$inferInsert) {
    await db.insert(profilePictures).values(values);
  },

  async delete(db: DbOrTx, id: string) {
    await db.delete(profilePictures).where(eq(profilePictures.id, id));
  },
};
