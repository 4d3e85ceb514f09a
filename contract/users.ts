import { z } from 'zod';
import { decimalId } from './fields';
import { limits } from './limits';

export const profileSchema = z.object({
  /** Server-relative path (e.g. /uploads/profile-pictures/ab12.webp) or null. */
  profile_picture: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  address: z.string().nullable(),
  occupation: z.string().nullable(),
});

/** A user as anyone signed in may see it (spec §3 User). Never carries secrets. */
export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  full_name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  profile: profileSchema,
});
export type User = z.infer<typeof userSchema>;
export const userListSchema = z.array(userSchema);

const optionalText = z
  .string()
  .trim()
  .max(limits.profileText.max, `At most ${limits.profileText.max} characters`)
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

/** POST /user-profile (spec §3 Profile update payload). */
export const profileUpdateSchema = z.object({
  full_name: z
    .string({ error: 'Full name is required' })
    .trim()
    .min(1, 'Full name is required')
    .max(limits.fullName.max, `At most ${limits.fullName.max} characters`),
  /** Kept for the spec's payload shape; password changes go through the reset flow. */
  password_reset_token: z.string().nullable().optional(),
  date_of_birth: z
    .string()
    .trim()
    .refine((value) => value === '' || isPastIsoDate(value), 'Date of birth must be a past date (YYYY-MM-DD)')
    .nullable()
    .optional()
    .transform((value) => (value ? value : null)),
  address: optionalText,
  occupation: optionalText,
});
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;
export type ProfileChanges = z.output<typeof profileUpdateSchema>;

function isPastIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && date.getTime() < Date.now();
}

export const profileUpdateResponseSchema = z.object({ message: z.string(), user: userSchema });

export const uploadPictureResponseSchema = z.object({
  success: z.literal(true),
  profilePictureUrl: z.string(),
});
export const successResponseSchema = z.object({ success: z.literal(true), message: z.string().optional() });

export const userSearchQuerySchema = z.object({
  q: z.string().trim().max(limits.searchQuery.max).optional().default(''),
});
export const publicInfoQuerySchema = z.object({
  keyword: z.string().trim().max(limits.searchQuery.max).optional().default(''),
  dealId: decimalId().optional(),
});
