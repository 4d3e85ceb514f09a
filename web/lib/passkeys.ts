/*
 * The browser's side of passkeys (WebAuthn), through @simplewebauthn/browser. The library is imported
 * on first use, so the pages that never touch a passkey (the landing page, the Deals page) do not
 * download it.
 */

/** WebAuthn options as the server gives them (passed to the browser as they are). */
export type PasskeyOptions = Record<string, unknown>;

/** Whether this browser can use passkeys here at all (WebAuthn needs a secure context). */
export function passkeysSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext === true &&
    typeof window.PublicKeyCredential === 'function'
  );
}

/** Asks the browser to sign the server's challenge with a passkey (sign-in, second factor, step-up). */
export async function passkeyAssertion(options: PasskeyOptions): Promise<unknown> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: options as never });
}

/** Asks the browser (or the phone, or the security key) to make a new passkey for this site. */
export async function createPasskey(options: PasskeyOptions): Promise<unknown> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON: options as never });
}

/** A failure of the browser's passkey prompt (not an API answer), in words for the person. */
export function passkeyPromptProblem(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return 'This device already holds a passkey for your account.';
  }
  // What browsers throw when the person closes the prompt, or it times out.
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') {
    return 'The passkey prompt was closed before it finished. Please try again.';
  }
  if (error.name === 'SecurityError' || error.name === 'NotSupportedError') {
    return 'This browser cannot use a passkey here.';
  }
  return undefined;
}
