import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const version = 'v1';

/**
 * Secrets the server must read back (an authenticator app's shared secret) are kept encrypted with
 * AES-256-GCM, so a copy of the database alone does not reveal them. The 256-bit key is derived from
 * ENCRYPTION_KEY with HKDF; each value gets its own random nonce and carries its authentication tag.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'dealmaker', 'secret-box v1', 32));
  }

  /** `v1.<nonce>.<ciphertext>.<tag>`, base64url. */
  seal(plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [version, nonce, sealed, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plaintext; throws when the value was altered or sealed with another key. */
  open(sealed: string): string {
    const [tag, nonce, ciphertext, authTag] = sealed.split('.');
    if (tag !== version || !nonce || ciphertext === undefined || !authTag) {
      throw new Error('not a sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(authTag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
