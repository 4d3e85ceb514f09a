import { afterEach, describe, expect, it } from 'vitest';
import { clearStoredToken, getStoredToken, storeToken } from './auth-token';

describe('auth token storage', () => {
  afterEach(() => clearStoredToken());

  it('stores, reads and clears the token in the auth_token cookie', () => {
    expect(getStoredToken()).toBeNull();
    storeToken('a.b.c');
    expect(getStoredToken()).toBe('a.b.c');
    expect(document.cookie).toContain('auth_token=a.b.c');
    clearStoredToken();
    expect(getStoredToken()).toBeNull();
  });

  it('ignores other cookies', () => {
    // biome-ignore lint/suspicious/noDocumentCookie: setting up a neighbour cookie
    document.cookie = 'other=1; Path=/';
    storeToken('x.y.z');
    expect(getStoredToken()).toBe('x.y.z');
  });
});
