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
// The one login/register dialog, rendered by the layout.
export { AuthDialog } from './auth-dialog';
// Opens that dialog from anywhere (nav bar, landing page, signed-in pages).
export { AuthDialogProvider, useAuthDialog } from './auth-dialog-context';
// The login form, also for the stand-alone /login page.
export { LoginForm } from './login-form';
// The register form, also for the stand-alone /register page.
export { RegisterForm } from './register-form';
// The reset-password request dialog, also behind the profile's Reset Password button.
export { ResetRequestDialog } from './reset-request-dialog';
// "Confirm it is you" before a money or account change, asked in place for any call (rendered once).
export { StepUpDialog } from './step-up-dialog';
// Whether the signed-in user is an operator (the Operator console and its link).
export { useOperator } from './use-operator';
