import { describe, expect, it } from 'vitest';
import { decodeToken, isTokenExpired, validClaims } from './jwt';

const base64url = (value: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(value)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const tokenWith = (claims: unknown) =>
  `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(claims))}.signature`;

const now = Date.UTC(2025, 0, 1);
const claims = { id: 7, username: 'zoë_o', email: 'zoe@example.com', exp: now / 1000 + 3600 };

describe('decodeToken', () => {
  it('reads id, username, email and exp (unicode and base64url alphabet included)', () => {
    expect(decodeToken(tokenWith({ ...claims, tokenVersion: 2 }))).toEqual(claims);
  });

  it('returns null for anything unreadable', () => {
    expect(decodeToken('')).toBeNull();
    expect(decodeToken('garbage')).toBeNull();
    expect(decodeToken('a.%%%.c')).toBeNull();
    expect(decodeToken(`x.${base64url('not json')}.y`)).toBeNull();
    expect(decodeToken(tokenWith(null))).toBeNull();
    expect(decodeToken(tokenWith({ ...claims, id: '7' }))).toBeNull();
    expect(decodeToken(tokenWith({ ...claims, exp: undefined }))).toBeNull();
    expect(decodeToken(tokenWith({ id: 1, username: 'a' }))).toBeNull();
  });
});

describe('expiry', () => {
  it('is expired only once exp (seconds) is earlier than now', () => {
    expect(isTokenExpired({ exp: now / 1000 + 1 }, now)).toBe(false);
    expect(isTokenExpired({ exp: now / 1000 }, now)).toBe(false);
    expect(isTokenExpired({ exp: now / 1000 - 1 }, now)).toBe(true);
  });

  it('validClaims signs out expired and unparsable tokens', () => {
    expect(validClaims(tokenWith(claims), now)).toEqual(claims);
    expect(validClaims(tokenWith({ ...claims, exp: now / 1000 - 60 }), now)).toBeNull();
    expect(validClaims('nonsense', now)).toBeNull();
    expect(validClaims(null, now)).toBeNull();
  });
});
