import Bowser from 'bowser';
import type { FastifyRequest } from 'fastify';
import { readCookie } from '../../lib/credentials';
import { randomToken, sha256 } from '../../lib/secrets';

/** Where a sign-in comes from: shown in the sessions list and in the new-device mail. */
export type ClientInfo = {
  address: string;
  userAgent: string | null;
  /** "Chrome on Linux". */
  device: string;
  /** The browser's device cookie, when it sent one. */
  deviceKey: string | null;
};

/**
 * A long-lived, HTTP-only cookie that names the browser, sent only to the sign-in calls: a sign-in from
 * a browser without it (or with one the account never used) is a sign-in from a new device.
 */
export const deviceCookieName = 'dm_device';
const deviceCookieMaxAgeSeconds = 400 * 24 * 60 * 60;

/** "Chrome on Linux", "Safari on iOS"; "Unknown device" when the user agent says nothing useful. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name && os.name) return `${browser.name} on ${os.name}`;
  return browser.name || os.name || 'Unknown device';
}

export function clientInfoOf(request: FastifyRequest): ClientInfo {
  const userAgent = request.headers['user-agent']?.slice(0, 500) ?? null;
  const deviceKey = readCookie(request.headers.cookie, deviceCookieName);
  return {
    address: request.ip,
    userAgent,
    device: describeDevice(userAgent),
    deviceKey: deviceKey && /^[A-Za-z0-9_-]{20,100}$/.test(deviceKey) ? deviceKey : null,
  };
}

/** The stored form of a device key (only its hash is kept). */
export const deviceKeyHash = (deviceKey: string | null) => (deviceKey ? sha256(deviceKey) : null);

/** The Set-Cookie header that gives a browser its device key (with the sign-in answer). */
export function deviceCookie(deviceKey: string, secure: boolean) {
  return `${deviceCookieName}=${deviceKey}; Path=/api/auth; Max-Age=${deviceCookieMaxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export const newDeviceKey = () => randomToken();
