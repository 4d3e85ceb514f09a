import { hash, verify } from '@node-rs/argon2';

// argon2id, the parameters OWASP recommends (19 MiB, 2 passes).
const hashOptions = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
// Compared against when the user does not exist, so timing does not reveal which usernames exist.
const dummyHashPromise = hash('not-a-real-password', hashOptions);

export const hashPassword = (password: string) => hash(password, hashOptions);

/** Whether the password matches the hash; without a hash (no such user) it takes as long and fails. */
export async function passwordMatches(passwordHash: string | undefined, password: string) {
  const matches = await verify(passwordHash ?? (await dummyHashPromise), password);
  return passwordHash !== undefined && matches;
}
