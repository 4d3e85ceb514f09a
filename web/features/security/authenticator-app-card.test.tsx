import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearStoredToken, storeToken } from '../../lib/auth-token';
import { cleanup, click, getButton, getByLabel, renderInApp, typeInto, waitFor } from '../../test/render';
import { jsonResponse, signedInUser } from '../../test/session-fixtures';
import { AuthenticatorAppCard } from './authenticator-app-card';

const fetchMock = vi.fn<typeof fetch>();
const ada = signedInUser({ id: 4, username: 'ada', full_name: 'Ada Lovelace' });
const off = { totp: false, passkeys: 0, recoveryCodesLeft: 0, stepUpRequired: false, freshUntil: null };
const on = { totp: true, passkeys: 0, recoveryCodesLeft: 10, stepUpRequired: true, freshUntil: null };
const codes = Array.from({ length: 10 }, (_, i) => `code-${i}aaa-bbbb`);
// What the server sends is an SVG document; a hostile one must never run as markup in the page.
const qrSvg = '<svg xmlns="http://www.w3.org/2000/svg"><script>window.ran = true</script><rect/></svg>';

describe('AuthenticatorAppCard', () => {
  let status = off;
  beforeEach(() => {
    status = off;
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url === '/api/user-profile') return jsonResponse(ada.profile);
      if (url === '/api/auth/2fa') return jsonResponse(status);
      if (url === '/api/auth/2fa/totp/setup') {
        return jsonResponse({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrSvg });
      }
      if (url === '/api/auth/2fa/totp/confirm') {
        status = on;
        expect(JSON.parse(String(init?.body))).toEqual({ code: '123456' });
        return jsonResponse({ recoveryCodes: codes });
      }
      throw new Error(`Unexpected call ${url}`);
    });
    storeToken(ada.token);
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('turns on: the QR code as an image, the key as text, a code, then the recovery codes once', async () => {
    const { container } = await renderInApp(<AuthenticatorAppCard />);
    await click(await waitFor(() => getButton(container, 'Turn on')));

    const qr = await waitFor(() => container.querySelector('img'));
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;utf8,${encodeURIComponent(qrSvg)}`);
    expect(qr.getAttribute('alt')).toBe('QR code that adds Dealmaker to your authenticator app');
    expect(container.querySelector('svg script, script')).toBeNull();
    expect((window as { ran?: boolean }).ran).toBeUndefined();
    expect(container.querySelector('code')?.textContent).toBe('JBSWY3DPEHPK3PXP');

    const code = getByLabel(container, 'Authentication code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    await typeInto(code, '123456');
    await click(getButton(container, 'Confirm and turn on'));

    const list = await waitFor(() => container.querySelector('ol[aria-label="Recovery codes"]'));
    expect([...list.querySelectorAll('li')].map((item) => item.textContent)).toEqual(codes);
    expect(container.textContent).toContain('Save them now: they are shown only once.');
    await click(getButton(container, 'Done'));
    await waitFor(() => expect(container.textContent).toContain('Recovery codes left: 10'));
    expect(container.querySelector('ol[aria-label="Recovery codes"]')).toBeNull();
    expect(getButton(container, 'Turn off')).toBeTruthy();
  });
});
