import { z } from 'zod';
import { limits } from './limits';
import { ownUserSchema } from './users';

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(limits.email.max)
  .pipe(z.email('Please enter a valid email address'));

const password = z
  .string({ error: 'Password is required' })
  .min(limits.password.min, `Password must be at least ${limits.password.min} characters`)
  .max(limits.password.max, `Password must be at most ${limits.password.max} characters`);

export const registerRequestSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(limits.username.min, `Username must be ${limits.username.min}–${limits.username.max} characters`)
    .max(limits.username.max, `Username must be ${limits.username.min}–${limits.username.max} characters`)
    .regex(limits.username.pattern, 'Username may contain only letters, digits, dot, dash and underscore'),
  password,
  email,
  full_name: z
    .string({ error: 'Full name is required' })
    .trim()
    .min(1, 'Full name is required')
    .max(limits.fullName.max),
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const loginRequestSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(254),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(limits.password.max),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** The signed-in user sees all of their own record (privacy hides details from others only). */
export const loginResponseSchema = z.object({ token: z.string(), user: ownUserSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });

export const resetRequestSchema = z.object({ email });
export const resetRequestResponseSchema = z.object({ success: z.boolean(), message: z.string() });

export const resetPasswordSchema = z.object({ newPassword: password });

/** What the sign-in token carries (spec §3 Sign-in token). */
export const tokenClaimsSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;

/** GET /auth/me */
export const meResponseSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  /** Operators see the Operator console (granted only by a command on the server). */
  isOperator: z.boolean(),
  /** Whether the account has a second factor on (an operator needs one before the console opens). */
  secondFactor: z.boolean(),
});
