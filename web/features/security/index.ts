/**
 * The account's protections, on My Profile: the authenticator app and recovery codes, passkeys, sessions,
 * and changing the password or the email. Builds on `auth` (who is signed in, the status of the factors,
 * the code field); the sign-in steps and the step-up question stay in `auth`.
 */

// The confirmation of a new email, for the /confirm-email/:token page the mailed link opens.
export { useConfirmEmailChange } from './security-api';
// My Profile's Security section (anchor #security).
export { SecuritySection } from './security-section';
