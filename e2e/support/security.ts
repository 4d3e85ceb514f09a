import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { runSql } from './database';
import type { Actor } from './fixtures';

/**
 * The second factors as a person has them: an authenticator app (codes computed here from the secret
 * the page shows), the recovery codes, a passkey in Chromium's virtual authenticator; and sessions made
 * old, since a step-up is asked only of a session whose last factor is more than 10 minutes old.
 */

const period = 30;

/**
 * An authenticator app holding `secret`. The server takes each 30-second code once and never an older
 * one than the last it took, so every code given here is for a later step than the one before (the
 * server accepts one step either side of now); when that runs ahead of the clock, it waits.
 */
export function authenticatorApp(secret: string) {
  const totp = new TOTP({
    issuer: 'Dealmaker',
    algorithm: 'SHA1',
    digits: 6,
    period,
    secret: Secret.fromBase32(secret.replace(/\s+/g, '')),
  });
  let lastStep = -1;
  return {
    async nextCode(): Promise<string> {
      const now = () => Math.floor(Date.now() / 1000 / period);
      const step = Math.max(now(), lastStep + 1);
      while (step > now() + 1) await new Promise((resolve) => setTimeout(resolve, 1000));
      lastStep = step;
      return totp.generate({ timestamp: step * period * 1000 });
    },
  };
}

/** Turns the authenticator app on through the API (for journeys about something else): its app and codes. */
export async function turnOnAuthenticatorApp(actor: Actor) {
  const call = async (path: string, data?: unknown) => {
    const response = await actor.context.request.post(path, {
      data,
      headers: { authorization: `Bearer ${actor.token}` },
    });
    if (!response.ok())
      throw new Error(`POST ${path} failed (${response.status()}): ${await response.text()}`);
    return response.json();
  };
  const { secret } = (await call('/api/auth/2fa/totp/setup')) as { secret: string };
  const app = authenticatorApp(secret);
  const { recoveryCodes } = (await call('/api/auth/2fa/totp/confirm', { code: await app.nextCode() })) as {
    recoveryCodes: string[];
  };
  return { app, recoveryCodes };
}

/**
 * Makes every open session of the user as old, for step-up, as if its last factor was given 11 minutes
 * ago; then reads the account's status once, which makes the server forget what it cached of the session.
 */
export async function ageSessions(actor: Actor) {
  await runSql(
    "update sessions set factor_at = now() - interval '11 minutes' where user_id = $1 and ended_at is null",
    [actor.user.id],
  );
  const status = await actor.context.request.get('/api/auth/2fa', {
    headers: { authorization: `Bearer ${actor.token}` },
  });
  if (!status.ok()) throw new Error(`GET /api/auth/2fa failed (${status.status()})`);
}

/**
 * Chromium's virtual authenticator for this page (DevTools protocol): a platform authenticator that
 * keeps discoverable passkeys and says its user is verified, answering every prompt at once.
 */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    /** How many passkeys it holds. */
    async passkeyCount() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials.length;
    },
  };
}
