import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import { limits } from '../../../contract/limits';
import type { Passkey, PasskeyAssertion, PasskeyAttestation } from '../../../contract/security';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { PasskeyRow } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { factorsRepository } from './factors.repository';

/** How many challenges are handed out between two clean-ups of the expired ones. */
const challengesPerCleanup = 500;

/** What a WebAuthn challenge was handed out for. */
export type PasskeyPurpose = 'register' | 'sign-in' | 'second-factor' | 'step-up';

/**
 * Passkeys (WebAuthn), verified by @simplewebauthn/server (docs/decisions/0023-account-security.md). The
 * relying party is PUBLIC_URL: its host name is the RP id and its origin the only origin accepted. Each
 * challenge is stored when handed out and used once, so a response can be checked on any instance.
 */
export class PasskeysService {
  private readonly rpId: string;
  private readonly origin: string;
  private challengesSinceCleanup = 0;

  constructor(private readonly deps: { db: Db; config: Config }) {
    const url = new URL(deps.config.publicUrl);
    this.rpId = url.hostname;
    this.origin = url.origin;
  }

  list(userId: number): Promise<PasskeyRow[]> {
    return factorsRepository.passkeysOf(this.deps.db, userId);
  }

  async listPresented(userId: number): Promise<Passkey[]> {
    return (await this.list(userId)).map(presentPasskey);
  }

  // ── Registering ──

  async registrationOptions(user: { id: number; username: string; fullName: string }, sessionId: string) {
    const existing = await this.list(user.id);
    const options = await generateRegistrationOptions({
      rpName: 'Dealmaker',
      rpID: this.rpId,
      userName: user.username,
      userDisplayName: user.fullName,
      // The same user handle for every passkey of the account, and one that reveals nothing.
      userID: new TextEncoder().encode(`dealmaker-user-${user.id}`),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.credentialId,
        transports: passkey.transports,
      })),
      // A discoverable credential, so it can sign in without a username.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.remember(options.challenge, 'register', user.id, sessionId);
    return options;
  }

  /** Verifies the browser's answer to registrationOptions and keeps the new passkey. */
  async register(userId: number, sessionId: string, response: PasskeyAttestation, name: string) {
    const challenge = this.challengeOf(response.response.clientDataJSON);
    if (
      !(await factorsRepository.spendWebauthnChallenge(this.deps.db, challenge, {
        purpose: 'register',
        userId,
        boundTo: sessionId,
      }))
    ) {
      throw badRequest('This passkey request has expired. Please try again.');
    }
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: false,
      });
    } catch {
      throw badRequest('The passkey could not be verified. Please try again.');
    }
    if (!verification.verified) throw badRequest('The passkey could not be verified. Please try again.');
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    if (await factorsRepository.passkeyByCredentialId(this.deps.db, credential.id)) {
      throw badRequest('This passkey is registered already.');
    }
    const row = await factorsRepository.insertPasskey(this.deps.db, {
      userId,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name,
    });
    return presentPasskey(row);
  }

  async rename(userId: number, id: number, name: string) {
    const row = await factorsRepository.renamePasskey(this.deps.db, userId, id, name);
    if (!row) throw notFound('Passkey not found.');
    return presentPasskey(row);
  }

  async remove(userId: number, id: number, db: DbOrTx = this.deps.db) {
    if (!(await factorsRepository.deletePasskey(db, userId, id))) throw notFound('Passkey not found.');
  }

  // ── Using one ──

  /**
   * Options for navigator.credentials.get(): for a sign-in with a passkey alone, any discoverable passkey
   * of this site; otherwise the passkeys of `userId`. `boundTo` ties the answer to a session or a sign-in.
   */
  async assertionOptions(
    purpose: Exclude<PasskeyPurpose, 'register'>,
    userId: number | null,
    boundTo: string | null,
  ) {
    const allowCredentials =
      userId === null
        ? []
        : (await this.list(userId)).map((passkey) => ({
            id: passkey.credentialId,
            transports: passkey.transports,
          }));
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      allowCredentials,
      // A passkey alone stands for both factors only when the authenticator checked its user.
      userVerification: purpose === 'sign-in' ? 'required' : 'preferred',
    });
    await this.remember(options.challenge, purpose, userId, boundTo);
    return options;
  }

  /**
   * Verifies an assertion made for `purpose`; the user whose passkey it is, or null when it fails (an
   * unknown passkey, another user's, a used or expired challenge, a bad signature, a counter gone back).
   */
  async verifyAssertion(
    response: PasskeyAssertion,
    expect: { purpose: Exclude<PasskeyPurpose, 'register'>; userId: number | null; boundTo: string | null },
  ): Promise<number | null> {
    const passkey = await factorsRepository.passkeyByCredentialId(this.deps.db, response.id);
    if (!passkey || (expect.userId !== null && passkey.userId !== expect.userId)) return null;
    let challenge: string;
    try {
      challenge = this.challengeOf(response.response.clientDataJSON);
    } catch {
      return null;
    }
    const fresh = await factorsRepository.spendWebauthnChallenge(this.deps.db, challenge, {
      purpose: expect.purpose,
      userId: expect.userId,
      boundTo: expect.boundTo,
    });
    if (!fresh) return null;
    try {
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: expect.purpose === 'sign-in',
      });
      if (!verified) return null;
      if (
        !(await factorsRepository.recordPasskeyUse(this.deps.db, passkey.id, authenticationInfo.newCounter))
      )
        return null;
      return passkey.userId;
    } catch {
      return null;
    }
  }

  private async remember(
    challenge: string,
    purpose: PasskeyPurpose,
    userId: number | null,
    boundTo: string | null,
  ) {
    // Now and then, the challenges nobody can answer any more go (options are asked for without signing in).
    if (++this.challengesSinceCleanup >= challengesPerCleanup) {
      this.challengesSinceCleanup = 0;
      await factorsRepository.deleteStaleChallenges(this.deps.db);
    }
    await factorsRepository.insertWebauthnChallenge(this.deps.db, {
      challenge,
      purpose,
      userId,
      boundTo,
      expiresAt: new Date(Date.now() + limits.security.webauthnChallengeSeconds * 1000),
    });
  }

  /** The challenge the browser signed, from its client data (verified against the stored one after). */
  private challengeOf(clientDataJSON: string): string {
    try {
      const challenge = decodeClientDataJSON(clientDataJSON).challenge;
      if (typeof challenge !== 'string' || challenge.length > 200) throw new Error('no challenge');
      return challenge;
    } catch {
      throw badRequest('The passkey answer is malformed.');
    }
  }
}

export function presentPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    backedUp: row.backedUp,
  };
}
