import { z } from 'zod';
import { limits } from './limits';

/**
 * Accounts' protections: two-factor sign-in (authenticator app, recovery codes, passkeys), sessions a user
 * can see and end, and step-up (a second factor given in the last minutes) before money leaves.
 */

/** A code from an authenticator app: six digits (spaces people type in the middle are dropped). */
export const authenticatorCode = z
  .string({ error: 'Code is required' })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

/** A recovery code as shown (xxxx-xxxx-xxxx); case, spaces and dashes do not matter. */
export const recoveryCode = z
  .string({ error: 'Recovery code is required' })
  .transform((value) => value.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z2-7]{12}$/, 'Enter one of your recovery codes (like abcd-efgh-ijkm)'));

const base64url = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');

/** What the browser's navigator.credentials.get() gave (@simplewebauthn/browser's startAuthentication). */
export const passkeyAssertionSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** What navigator.credentials.create() gave (@simplewebauthn/browser's startRegistration). */
export const passkeyAttestationSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export type PasskeyAttestation = z.infer<typeof passkeyAttestationSchema>;

/** WebAuthn options for the browser, passed as they are to @simplewebauthn/browser. */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());

export const secondFactorMethods = ['totp', 'recovery', 'passkey'] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

/** POST /api/auth/login when the account has a second factor: no token yet. */
export const twoFactorChallengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  /** Sent back with the code to POST /api/auth/login/2fa; lives 5 minutes. */
  challenge: z.string(),
  methods: z.array(z.enum(secondFactorMethods)),
  /** Present when a passkey may be used: the options for navigator.credentials.get(). */
  passkeyOptions: webauthnOptionsSchema.optional(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

const challengeToken = z.string({ error: 'challenge is required' }).min(1).max(200);

/** Exactly one of the given keys is present. */
const exactlyOne =
  <K extends string>(keys: K[]) =>
  (value: Partial<Record<K, unknown>>) =>
    keys.filter((key) => value[key] !== undefined).length === 1;

/** POST /api/auth/login/2fa: one of a code, a recovery code or a passkey assertion. */
export const secondStepRequestSchema = z
  .object({
    challenge: challengeToken,
    code: authenticatorCode.optional(),
    recoveryCode: recoveryCode.optional(),
    passkey: passkeyAssertionSchema.optional(),
  })
  .refine(exactlyOne(['code', 'recoveryCode', 'passkey']), {
    message: 'Give a code, a recovery code or a passkey',
    path: ['code'],
  });
export type SecondStepRequest = z.infer<typeof secondStepRequestSchema>;

/** POST /api/auth/step-up: a factor (or, for an account without one, the password). */
export const stepUpRequestSchema = z
  .object({
    code: authenticatorCode.optional(),
    recoveryCode: recoveryCode.optional(),
    passkey: passkeyAssertionSchema.optional(),
    password: z.string().min(1, 'Password is required').max(limits.password.max).optional(),
  })
  .refine(exactlyOne(['code', 'recoveryCode', 'passkey', 'password']), {
    message: 'Give a code, a recovery code, a passkey or your password',
    path: ['code'],
  });
export type StepUpRequest = z.infer<typeof stepUpRequestSchema>;
export const stepUpResponseSchema = z.object({ freshUntil: z.string() });

/** GET /api/auth/2fa: what protects the account, and whether this session may move money now. */
export const securityStatusSchema = z.object({
  totp: z.boolean(),
  passkeys: z.number().int(),
  recoveryCodesLeft: z.number().int(),
  /** Whether money and account changes need a fresh second factor (an account with one). */
  stepUpRequired: z.boolean(),
  /** Until when this session counts as fresh; null when it does not. */
  freshUntil: z.string().nullable(),
});
export type SecurityStatus = z.infer<typeof securityStatusSchema>;

export const totpSetupSchema = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code (an SVG document). */
  qrSvg: z.string(),
});
export const totpConfirmSchema = z.object({ code: authenticatorCode });
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const totpDisableSchema = z.object({
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(limits.password.max),
  /** A code from the app, or one of the recovery codes. */
  code: z.string({ error: 'Code is required' }).trim().min(1, 'Code is required').max(40),
});

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Synced across the user's devices (a cloud passkey) or bound to one authenticator. */
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyListSchema = z.array(passkeySchema);

const passkeyName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(limits.security.passkeyName.max, `Name must be at most ${limits.security.passkeyName.max} characters`);
export const passkeyRegisterSchema = z.object({
  response: passkeyAttestationSchema,
  name: passkeyName.optional(),
});
export const passkeyRegisteredSchema = z.object({
  passkey: passkeySchema,
  /** Given when this passkey is the account's first second factor: shown once. */
  recoveryCodes: z.array(z.string()).optional(),
});
export const passkeyRenameSchema = z.object({ name: passkeyName });
export const passkeyLoginSchema = z.object({ response: passkeyAssertionSchema });

export const sessionSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  /** "Chrome on Linux", from the user agent. */
  device: z.string(),
  address: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;
export const sessionListSchema = z.array(sessionSchema);
export const sessionIdParamSchema = z.object({ id: z.string().min(1).max(100) });
export const sessionsEndedSchema = z.object({ ended: z.number().int() });

const newPassword = z
  .string({ error: 'New password is required' })
  .min(limits.password.min, `Password must be at least ${limits.password.min} characters`)
  .max(limits.password.max, `Password must be at most ${limits.password.max} characters`);
export const passwordChangeSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(limits.password.max),
  newPassword,
});

export const emailChangeSchema = z.object({
  newEmail: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(limits.email.max)
    .pipe(z.email('Please enter a valid email address')),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(limits.password.max),
});
export const emailConfirmSchema = z.object({ token: z.string().min(1).max(200) });

export const resendVerificationSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(limits.email.max)
    .pipe(z.email('Please enter a valid email address')),
});
