/** Sign-in for every screen: who is signed in, the login/register dialog, the auth forms and calls. */

// The signed-in user's record (profile edits it), the one-shot calls of the email-link pages, and what
// protects the account (GET /auth/2fa), which the Security section shows and the step-up dialog reads.
export {
  currentUserQueryKey,
  fetchCurrentUser,
  fetchSecurityStatus,
  securityStatusQueryKey,
  useResetPassword,
  useVerifyEmail,
} from './auth-api';
// Who is signed in, for every screen and feature: the provider, the hook and the user's shape.
export { AuthProvider, type CurrentUser, useAuth } from './auth-context';
// Opens the login/register dialog from anywhere (nav bar, landing page, signed-in pages).
export { AuthDialogProvider, useAuthDialog } from './auth-dialog-context';
// Downloaded when first shown, not with every page (deferred-parts.tsx): the one login/register dialog,
// rendered by the layout; the login and register forms, also for the stand-alone /login and /register
// pages; the reset-password request dialog, also behind the profile's Reset Password button.
export { AuthDialog, LoginForm, RegisterForm, ResetRequestDialog } from './deferred-parts';
// "Confirm it is you" before a money or account change, asked in place for any call (rendered once).
export { StepUpDialog } from './step-up-dialog';
// Whether the signed-in user is an operator (the Operator console and its link).
export { useOperator } from './use-operator';
