import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profilePictures } from '../../db/schema';
import { signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const notAnImage = {
  message: 'Please select an image file (JPEG, PNG, GIF or WebP).',
  code: 'VALIDATION_FAILED',
};
const pictureUrl = /^\/uploads\/profile-pictures\/[A-Za-z0-9_-]+\.webp$/;
const dateMessage = 'Date of birth must be a past date (YYYY-MM-DD)';
/** Who sees a new user's email, date of birth and address: the people they share a deal with. */
const defaultPrivacy = { email: 'deal-partners', dateOfBirth: 'deal-partners', address: 'deal-partners' };

function image(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
}

/** Random pixels compress badly: big files, and a truncated copy really misses image data. */
function noise(width: number, height: number) {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });
}

function form(bytes: Uint8Array, options: { type?: string; filename?: string; field?: string } = {}) {
  const body = new FormData();
  body.append(
    options.field ?? 'profilePicture',
    new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/png' }),
    options.filename ?? 'picture.png',
  );
  return body;
}

function upload(user: SignedUpUser, body: BodyInit) {
  return server.post('/api/user-profile/upload-picture', { token: user.token, rawBody: body });
}

async function profileOf(user: SignedUpUser) {
  const response = await server.get('/api/user-profile', { token: user.token });
  expect(response.status).toBe(200);
  return response.body;
}

/** The stored picture, fetched as a browser would (no token). */
async function fetchPicture(url: string) {
  const response = await fetch(`${server.url}${url}`);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function picturesOf(user: SignedUpUser) {
  return server.db.select().from(profilePictures).where(eq(profilePictures.userId, user.user.id));
}

describe('GET /api/user-profile', () => {
  it("answers the caller's own profile, with who may see its private details", async () => {
    const user = await signUp(server);
    const response = await server.get('/api/user-profile', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: user.user.id,
      username: user.username,
      email: user.email,
      full_name: user.full_name,
      createdAt: user.user.createdAt,
      updatedAt: user.user.updatedAt,
      profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
      privacy: defaultPrivacy,
    });
    expect(JSON.stringify(response.body)).not.toMatch(/password|hash|verification|token/i);
  });

  it('needs a signed-in caller', async () => {
    const response = await server.get('/api/user-profile');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('POST /api/user-profile', () => {
  it('updates full name, date of birth, address and occupation', async () => {
    const user = await signUp(server);
    const response = await server.post('/api/user-profile', {
      token: user.token,
      body: {
        full_name: '  Grace Hopper ',
        password_reset_token: null,
        date_of_birth: '1906-12-09',
        address: ' 1 Navy Yard, Arlington ',
        occupation: 'Rear admiral',
      },
    });
    expect(response.status).toBe(200);
    const expected = {
      id: user.user.id,
      username: user.username,
      email: user.email,
      full_name: 'Grace Hopper',
      createdAt: user.user.createdAt,
      updatedAt: expect.any(String),
      profile: {
        profile_picture: null,
        date_of_birth: '1906-12-09',
        address: '1 Navy Yard, Arlington',
        occupation: 'Rear admiral',
      },
      privacy: defaultPrivacy,
    };
    expect(response.body).toEqual({ message: 'Profile updated successfully!', user: expected });
    expect(Date.parse(response.body.user.updatedAt)).toBeGreaterThan(Date.parse(user.user.updatedAt));
    expect(await profileOf(user)).toEqual({ ...expected, updatedAt: response.body.user.updatedAt });
  });

  it('turns blank optional fields into null', async () => {
    const user = await signUp(server);
    await server.post('/api/user-profile', {
      token: user.token,
      body: { full_name: 'Before', date_of_birth: '1980-01-01', address: 'Somewhere', occupation: 'Trader' },
    });
    const response = await server.post('/api/user-profile', {
      token: user.token,
      body: { full_name: 'After', date_of_birth: '', address: '   ', occupation: null },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.full_name).toBe('After');
    expect(response.body.user.profile).toEqual({
      profile_picture: null,
      date_of_birth: null,
      address: null,
      occupation: null,
    });
    expect((await profileOf(user)).profile).toEqual(response.body.user.profile);
  });

  it('never changes the username or the email', async () => {
    const user = await signUp(server);
    const other = await signUp(server);
    const response = await server.post('/api/user-profile', {
      token: user.token,
      body: {
        full_name: 'Renamed',
        username: 'hijacked_name',
        email: other.email,
        id: other.user.id,
        password: 'new password 123',
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({
      username: user.username,
      email: user.email,
      full_name: 'Renamed',
    });
    const profile = await profileOf(user);
    expect(profile.username).toBe(user.username);
    expect(profile.email).toBe(user.email);
    expect(profile.id).toBe(user.user.id);
    expect((await profileOf(other)).full_name).toBe(other.full_name);
    const me = await server.get('/api/auth/me', { token: user.token });
    expect(me.body).toEqual({
      id: user.user.id,
      username: user.username,
      email: user.email,
      isOperator: false,
      secondFactor: false,
    });
    const login = await server.post('/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(login.status).toBe(200);
  });

  it('refuses a date of birth that is not a past YYYY-MM-DD date', async () => {
    const user = await signUp(server);
    const nextYear = new Date().getUTCFullYear() + 1;
    for (const date_of_birth of [
      '2000-13-01',
      '2001-02-29',
      '2000-02-30',
      '01/02/2000',
      '2000-1-1',
      'yesterday',
      '2000-01-01T00:00:00Z',
      `${nextYear}-01-01`,
    ]) {
      const response = await server.post('/api/user-profile', {
        token: user.token,
        body: { full_name: 'Dated', date_of_birth },
      });
      expect(response.status, date_of_birth).toBe(400);
      expect(response.body).toEqual({
        message: dateMessage,
        code: 'VALIDATION_FAILED',
        fieldErrors: { date_of_birth: [dateMessage] },
      });
    }
    expect((await profileOf(user)).full_name).toBe(user.full_name);
    const leapDay = await server.post('/api/user-profile', {
      token: user.token,
      body: { full_name: 'Dated', date_of_birth: '2000-02-29' },
    });
    expect(leapDay.status).toBe(200);
    expect(leapDay.body.user.profile.date_of_birth).toBe('2000-02-29');
  });

  it('refuses a missing full name, over-long text and wrong types', async () => {
    const user = await signUp(server);
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'full_name', 'Full name is required'],
      [{ full_name: '   ' }, 'full_name', 'Full name is required'],
      [{ full_name: 5 }, 'full_name', 'Full name is required'],
      [{ full_name: 'x'.repeat(101) }, 'full_name', 'At most 100 characters'],
      [{ full_name: 'Ok', address: 'x'.repeat(201) }, 'address', 'At most 200 characters'],
      [{ full_name: 'Ok', occupation: 'x'.repeat(201) }, 'occupation', 'At most 200 characters'],
    ];
    for (const [body, field, message] of cases) {
      const response = await server.post('/api/user-profile', { token: user.token, body });
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(response.body).toEqual({
        message,
        code: 'VALIDATION_FAILED',
        fieldErrors: { [field]: [message] },
      });
    }
    const wrongType = await server.post('/api/user-profile', {
      token: user.token,
      body: { full_name: 'Ok', address: 12, date_of_birth: false },
    });
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body.fieldErrors).sort()).toEqual(['address', 'date_of_birth']);
    const none = await server.post('/api/user-profile', { token: user.token });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'Request body is missing.', code: 'VALIDATION_FAILED' });
    expect((await profileOf(user)).full_name).toBe(user.full_name);
  });

  it('needs a signed-in caller', async () => {
    const response = await server.post('/api/user-profile', { body: { full_name: 'Anyone' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('profile pictures', () => {
  it('accepts PNG, JPEG, GIF and WebP and serves each as an immutable WebP', async () => {
    const user = await signUp(server);
    const uploads: [string, string, Buffer][] = [
      ['image/png', 'a.png', await image(64, 48).png().toBuffer()],
      ['image/jpeg', 'b.jpg', await image(64, 48).jpeg().toBuffer()],
      ['image/gif', 'c.gif', await image(64, 48).gif().toBuffer()],
      ['image/webp', 'd.webp', await image(64, 48).webp().toBuffer()],
    ];
    for (const [type, filename, bytes] of uploads) {
      const response = await upload(user, form(bytes, { type, filename }));
      expect(response.status, type).toBe(200);
      expect(response.body).toEqual({ success: true, profilePictureUrl: expect.stringMatching(pictureUrl) });

      const { response: served, bytes: stored } = await fetchPicture(response.body.profilePictureUrl);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const metadata = await sharp(stored).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width: 64, height: 48 });
      expect((await profileOf(user)).profile.profile_picture).toBe(response.body.profilePictureUrl);
    }
  });

  it('shrinks a large picture to fit 512×512 and never enlarges a small one', async () => {
    const user = await signUp(server);
    const large = await upload(user, form(await image(2000, 1000).png().toBuffer()));
    expect(large.status).toBe(200);
    const { bytes } = await fetchPicture(large.body.profilePictureUrl);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 512, height: 256 });

    const tall = await upload(user, form(await image(300, 900).jpeg().toBuffer(), { type: 'image/jpeg' }));
    expect(await sharp((await fetchPicture(tall.body.profilePictureUrl)).bytes).metadata()).toMatchObject({
      width: 171,
      height: 512,
    });

    const small = await upload(user, form(await image(10, 20).png().toBuffer()));
    expect(await sharp((await fetchPicture(small.body.profilePictureUrl)).bytes).metadata()).toMatchObject({
      width: 10,
      height: 20,
    });
  });

  it('accepts a file of several megabytes under the 5 MB limit', async () => {
    const user = await signUp(server);
    const bytes = await noise(1100, 900).jpeg({ quality: 100 }).toBuffer();
    expect(bytes.length).toBeGreaterThan(1024 * 1024);
    expect(bytes.length).toBeLessThan(5 * 1024 * 1024);
    const response = await upload(user, form(bytes, { type: 'image/jpeg', filename: 'big.jpg' }));
    expect(response.status).toBe(200);
    const { bytes: stored } = await fetchPicture(response.body.profilePictureUrl);
    expect(await sharp(stored).metadata()).toMatchObject({ width: 512, height: 419 });
  });

  it('applies the EXIF orientation and strips the metadata', async () => {
    const user = await signUp(server);
    const bytes = await image(200, 100)
      .jpeg()
      .withExif({ IFD0: { Copyright: 'private-marker-4711' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(bytes.includes('private-marker-4711')).toBe(true);
    const response = await upload(user, form(bytes, { type: 'image/jpeg' }));
    expect(response.status).toBe(200);
    const { bytes: stored } = await fetchPicture(response.body.profilePictureUrl);
    expect(stored.includes('private-marker-4711')).toBe(false);
    const metadata = await sharp(stored).metadata();
    expect(metadata).toMatchObject({ width: 100, height: 200 });
    expect(metadata.exif).toBeUndefined();
  });

  it('replaces the previous picture, whose URL then answers 404', async () => {
    const user = await signUp(server);
    const first = await upload(user, form(await image(30, 30).png().toBuffer()));
    const second = await upload(user, form(await image(40, 40).png().toBuffer()));
    expect(second.status).toBe(200);
    expect(second.body.profilePictureUrl).not.toBe(first.body.profilePictureUrl);

    const old = await server.get(first.body.profilePictureUrl);
    expect(old.status).toBe(404);
    expect(old.body).toEqual({ message: 'Picture not found.', code: 'NOT_FOUND' });
    expect((await fetchPicture(second.body.profilePictureUrl)).response.status).toBe(200);
    expect((await profileOf(user)).profile.profile_picture).toBe(second.body.profilePictureUrl);
    expect(await picturesOf(user)).toHaveLength(1);
  });

  it('keeps exactly one picture when two uploads race', async () => {
    const user = await signUp(server);
    const bytes = await image(50, 50).png().toBuffer();
    const responses = await Promise.all([upload(user, form(bytes)), upload(user, form(bytes))]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    const current = (await profileOf(user)).profile.profile_picture;
    expect(responses.map((r) => r.body.profilePictureUrl)).toContain(current);
    const rows = await picturesOf(user);
    expect(rows).toHaveLength(1);
    expect(current).toContain(rows[0]!.id);
  });

  it('removes the picture', async () => {
    const user = await signUp(server);
    const uploaded = await upload(user, form(await image(30, 30).png().toBuffer()));
    const response = await server.delete('/api/user-profile/profile-picture', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: 'Profile picture removed.' });
    expect((await profileOf(user)).profile.profile_picture).toBeNull();
    expect((await server.get(uploaded.body.profilePictureUrl)).status).toBe(404);
    expect(await picturesOf(user)).toHaveLength(0);

    const again = await server.delete('/api/user-profile/profile-picture', { token: user.token });
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(true);
  });

  it('serves a picture to anyone, and 404 for an unknown one', async () => {
    const unknown = await server.get('/uploads/profile-pictures/doesNotExist123.webp');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Picture not found.', code: 'NOT_FOUND' });
    for (const path of ['/uploads/profile-pictures/x.png', '/uploads/profile-pictures/..%2Fsecret.webp']) {
      const response = await server.get(path);
      expect(response.status, path).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
  });

  describe('refusals leave the current picture in place', () => {
    let user: SignedUpUser;
    let current: string;
    beforeAll(async () => {
      user = await signUp(server);
      current = (await upload(user, form(await image(30, 30).png().toBuffer()))).body.profilePictureUrl;
    });

    async function expectUnchanged() {
      expect((await profileOf(user)).profile.profile_picture).toBe(current);
      expect((await fetchPicture(current)).response.status).toBe(200);
      expect(await picturesOf(user)).toHaveLength(1);
    }

    it('refuses an HTML file sent as image/png', async () => {
      const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
      const response = await upload(user, form(html, { type: 'image/png', filename: 'evil.png' }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(notAnImage);
      await expectUnchanged();
    });

    it('refuses an SVG, whatever it is called', async () => {
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      );
      for (const [type, filename] of [
        ['image/svg+xml', 'picture.svg'],
        ['image/png', 'picture.png'],
      ] as const) {
        const response = await upload(user, form(svg, { type, filename }));
        expect(response.status).toBe(400);
        expect(response.body).toEqual(notAnImage);
      }
      await expectUnchanged();
    });

    it('refuses other image formats', async () => {
      const tiff = await image(10, 10).tiff().toBuffer();
      const response = await upload(user, form(tiff, { type: 'image/tiff', filename: 'picture.tiff' }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(notAnImage);
      await expectUnchanged();
    });

    it('refuses a truncated PNG', async () => {
      const whole = await noise(200, 200).png().toBuffer();
      const response = await upload(user, form(whole.subarray(0, Math.floor(whole.length / 2))));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: 'The image could not be read: it may be damaged or incomplete.',
        code: 'VALIDATION_FAILED',
      });
      await expectUnchanged();
    });

    it('refuses an empty file', async () => {
      const response = await upload(user, form(Buffer.alloc(0)));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'Please select an image file', code: 'VALIDATION_FAILED' });
      await expectUnchanged();
    });

    it('refuses a file over 5 MB with 413', async () => {
      const png = await image(10, 10).png().toBuffer();
      const big = Buffer.concat([png, randomBytes(6 * 1024 * 1024)]);
      const response = await upload(user, form(big));
      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        message: 'File size should be less than 5MB',
        code: 'PAYLOAD_TOO_LARGE',
      });
      await expectUnchanged();
    });

    it('refuses a file under another field name', async () => {
      const bytes = await image(20, 20).png().toBuffer();
      const response = await upload(user, form(bytes, { field: 'avatar' }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: 'Please select an image file',
        code: 'VALIDATION_FAILED',
        fieldErrors: { profilePicture: ['Please select an image file'] },
      });
      await expectUnchanged();
    });

    it('refuses a form without a file', async () => {
      const body = new FormData();
      body.append('profilePicture', 'not a file');
      const response = await upload(user, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: 'Please select an image file',
        code: 'VALIDATION_FAILED',
        fieldErrors: { profilePicture: ['Please select an image file'] },
      });
      await expectUnchanged();

      const empty = await upload(user, new FormData());
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('Please select an image file');
      await expectUnchanged();
    });

    it('refuses a request that is not multipart', async () => {
      const json = await server.post('/api/user-profile/upload-picture', {
        token: user.token,
        body: { profilePicture: 'data:image/png;base64,AAAA' },
      });
      expect(json.status).toBe(415);
      expect(json.body).toEqual({
        message: 'Expected a multipart/form-data upload.',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });

      const raw = await server.post('/api/user-profile/upload-picture', {
        token: user.token,
        rawBody: await image(20, 20).png().toBuffer(),
        headers: { 'content-type': 'image/png' },
      });
      expect(raw.status).toBe(415);
      expect(raw.body).toEqual({ message: 'Unsupported content type.', code: 'UNSUPPORTED_MEDIA_TYPE' });

      const none = await server.post('/api/user-profile/upload-picture', { token: user.token });
      expect(none.status).toBe(415);
      expect(none.body).toEqual({
        message: 'Expected a multipart/form-data upload.',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });

      await expectUnchanged();
    });

    it('refuses a malformed multipart body', async () => {
      const cut =
        '--xyz\r\nContent-Disposition: form-data; name="profilePicture"; filename="a.png"\r\n\r\nabc';
      for (const [contentType, rawBody] of [
        ['multipart/form-data', 'garbage'],
        ['multipart/form-data; boundary=xyz', 'garbage'],
        ['multipart/form-data; boundary=xyz', cut],
      ] as const) {
        const response = await server.post('/api/user-profile/upload-picture', {
          token: user.token,
          rawBody,
          headers: { 'content-type': contentType },
        });
        expect(response.status, rawBody).toBe(400);
        expect(response.body).toEqual({
          message: 'The upload could not be read. Please send it as multipart/form-data.',
          code: 'VALIDATION_FAILED',
        });
      }
      await expectUnchanged();
    });

    it('needs a signed-in caller to upload or remove', async () => {
      const bytes = await image(20, 20).png().toBuffer();
      const uploadResponse = await server.post('/api/user-profile/upload-picture', { rawBody: form(bytes) });
      expect(uploadResponse.status).toBe(401);
      expect(uploadResponse.body).toEqual(signInFirst);
      const removeResponse = await server.delete('/api/user-profile/profile-picture');
      expect(removeResponse.status).toBe(401);
      expect(removeResponse.body).toEqual(signInFirst);
      await expectUnchanged();
    });
  });
});
