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

/**
 * A user as the viewer may see it (spec §3 User). Never carries secrets. The email, date of birth and
 * address follow their owner's privacy settings: hidden means absent (the email key is left out; the
 * profile's date_of_birth and address, nullable already, are null). The user always sees all of their own.
 */
export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string().optional(),
  full_name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  profile: profileSchema,
});
export type User = z.infer<typeof userSchema>;
export const userListSchema = z.array(userSchema);

/** Who sees a detail: anyone signed in, the people the user shares a deal with, or the user alone. */
export const visibilities = ['everyone', 'deal-partners', 'only-me'] as const;
export type Visibility = (typeof visibilities)[number];
const visibilityOf = (detail: string) =>
  z.enum(visibilities, { error: `Who sees your ${detail}: choose everyone, deal-partners or only-me` });

/** Who sees the user's email, date of birth and address (default: deal-partners). */
export const privacySchema = z.object({
  email: visibilityOf('email'),
  dateOfBirth: visibilityOf('date of birth'),
  address: visibilityOf('address'),
});
export type Privacy = z.infer<typeof privacySchema>;
export type PrivacyField = keyof Privacy;

/** PUT /user-profile/privacy: any of the three settings; the ones left out keep their value. */
export const privacyUpdateSchema = z
  .strictObject(privacySchema.partial().shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown privacy setting: ${issue.keys.join(', ')}. The settings are email, dateOfBirth and address.`
        : undefined,
  })
  .refine(
    (change) => Object.keys(change).length > 0,
    'Choose a setting to change: email, dateOfBirth or address',
  );
export type PrivacyUpdate = z.infer<typeof privacyUpdateSchema>;

/** The user as they see themselves: everything, the email always. */
export const ownUserSchema = userSchema.extend({ email: z.string() });
export type OwnUser = z.infer<typeof ownUserSchema>;

/** GET /user-profile: the caller's own profile, with their privacy settings. */
export const ownProfileSchema = ownUserSchema.extend({ privacy: privacySchema });
export type OwnProfile = z.infer<typeof ownProfileSchema>;

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

export const profileUpdateResponseSchema = z.object({ message: z.string(), user: ownProfileSchema });

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
