import { Suspense } from 'react';
import { lazyAfterFirstPage } from '../../lib/first-page-shown';
import { loadedWhenOpened } from '../../lib/loaded-when-opened';
import type { LoginFormProps } from './login-form';
import type { RegisterFormProps } from './register-form';
import type { ResetRequestDialogProps } from './reset-request-dialog';

// The parts of the auth feature no first page shows: the forms, and the dialog frame they open in, stay
// out of the app's first download (every page imports this feature's entry). Imported by index.ts only.

const LoadedAuthDialog = lazyAfterFirstPage(() =>
  import('./auth-dialog').then((module) => ({ default: module.AuthDialog })),
);

/**
 * The login / register dialog (auth-dialog.tsx), downloaded once the first page is shown: asked for
 * before that, it opens once its code is in.
 */
export function AuthDialog() {
  return (
    <Suspense fallback={null}>
      <LoadedAuthDialog />
    </Suspense>
  );
}

/** The login form, for the stand-alone /login page: downloaded with that page. */
export const LoginForm = loadedWhenOpened<LoginFormProps>(
  () => import('./login-form').then((module) => module.LoginForm),
  () => true,
);

/** The register form, for the stand-alone /register page: downloaded with that page. */
export const RegisterForm = loadedWhenOpened<RegisterFormProps>(
  () => import('./register-form').then((module) => module.RegisterForm),
  () => true,
);

/** The reset-password request dialog (My Profile's Reset Password), downloaded when first opened. */
export const ResetRequestDialog = loadedWhenOpened<ResetRequestDialogProps>(
  () => import('./reset-request-dialog').then((module) => module.ResetRequestDialog),
  (props) => props.open,
);
