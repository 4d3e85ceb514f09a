import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { Secret, TOTP } from 'otpauth';
import type { ApiResponse, SignedUpUser, TestServer } from './harness';

/** The code an authenticator app shows for `secret` (base32), `steps` 30-second periods from now. */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** A code for `secret` that is not the current one nor its neighbours: surely wrong. */
export function wrongTotpCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((steps) => totpCode(secret, steps)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

/**
 * An authenticator app as a test holds it: each `nextCode()` is for a later 30-second step than the one
 * before (the server accepts each step once), using the steps the server's window allows (one before
 * and one after now) and waiting for the clock only when those are used up.
 */
export class TotpApp {
  private lastStep = Number.NEGATIVE_INFINITY;

  constructor(readonly secret: string) {}

  async nextCode(): Promise<string> {
    for (;;) {
      const now = Math.floor(Date.now() / 30_000);
      const step = Math.max(this.lastStep + 1, now - 1);
      if (step <= now + 1) {
        this.lastStep = step;
        return totpCode(this.secret, step - now);
      }
      await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 50));
    }
  }
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

type Credential = { id: Buffer; privateKey: KeyObject; userHandle: string; rpId: string; counter: number };

/**
 * A software passkey authenticator speaking WebAuthn as a browser with a platform authenticator would:
 * ES256 keys, "none" attestation, discoverable credentials, user presence and verification. What it
 * answers goes to the API as @simplewebauthn/browser would send it.
 */
export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    private readonly origin: string,
    private readonly options: { userVerified?: boolean } = {},
  ) {}

  /** navigator.credentials.create() for the registration options the server gave. */
  createCredential(options: any) {
    const rpId: string = options.rp.id;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const id = randomBytes(16);
    const credentialData = Buffer.concat([
      Buffer.alloc(16), // AAGUID
      Buffer.from([0, id.length]),
      id,
      Buffer.from(isoCBOR.encode(coseKey as never)),
    ]);
    const authData = Buffer.concat([this.authDataHead(rpId, 0x40, 0), credentialData]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    this.credentials.push({ id, privateKey, userHandle: options.user.id, rpId, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get() for the assertion options the server gave (the first credential allowed). */
  getAssertion(options: any, credential = this.pick(options)) {
    credential.counter += 1;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authData = this.authDataHead(credential.rpId, 0, credential.counter);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private pick(options: any): Credential {
    const allowed: string[] = (options.allowCredentials ?? []).map((c: { id: string }) => c.id);
    const credential = allowed.length
      ? this.credentials.find((c) => allowed.includes(b64url(c.id)))
      : this.credentials[0];
    if (!credential) throw new Error('no credential of this authenticator is allowed');
    return credential;
  }

  /** rpIdHash, flags (user present, verified unless told otherwise, plus `extraFlags`), counter. */
  private authDataHead(rpId: string, extraFlags: number, counter: number) {
    const flags = 0x01 | (this.options.userVerified === false ? 0 : 0x04) | extraFlags;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }

  private clientData(type: string, challenge: string) {
    return b64url(Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false })));
  }
}

/** Turns the authenticator app on for a user: its app (for later codes) and the recovery codes. */
export async function turnOnTotp(server: TestServer, user: { token: string }) {
  const setup = await server.post('/api/auth/2fa/totp/setup', { token: user.token });
  if (setup.status !== 200) throw new Error(`totp setup failed: ${JSON.stringify(setup.body)}`);
  const app = new TotpApp(setup.body.secret);
  const confirmed = await server.post('/api/auth/2fa/totp/confirm', {
    token: user.token,
    body: { code: await app.nextCode() },
  });
  if (confirmed.status !== 200) throw new Error(`totp confirm failed: ${JSON.stringify(confirmed.body)}`);
  return { app, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

/** Signs in with the password and a code from the app: the new session's token. */
export async function signInWithTotp(server: TestServer, user: SignedUpUser, app: TotpApp) {
  const first = await server.post('/api/auth/login', {
    body: { username: user.username, password: user.password },
  });
  if (first.status !== 200 || !first.body.challenge)
    throw new Error(`login failed: ${JSON.stringify(first.body)}`);
  const second: ApiResponse = await server.post('/api/auth/login/2fa', {
    body: { challenge: first.body.challenge, code: await app.nextCode() },
  });
  if (second.status !== 200) throw new Error(`second step failed: ${JSON.stringify(second.body)}`);
  return second.body.token as string;
}
