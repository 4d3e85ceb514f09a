import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, errorMessage, onUnauthorized, parseApiError } from './api';
import { clearStoredToken, storeToken } from './auth-token';

describe('parseApiError', () => {
  it('carries status, message, code and field errors of the JSON error body', () => {
    const error = parseApiError(
      400,
      JSON.stringify({
        message: 'Email is required',
        code: 'VALIDATION_FAILED',
        fieldErrors: { email: ['Email is required'] },
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.serverMessage).toBe('Email is required');
    expect(error.message).toBe('Email is required');
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fieldErrors).toEqual({ email: ['Email is required'] });
  });

  it('has no server message when the body is not a JSON error', () => {
    for (const body of [
      '',
      '<html>Bad gateway</html>',
      'null',
      '"text"',
      '{"message":""}',
      '{"message":42}',
    ]) {
      const error = parseApiError(502, body);
      expect(error.serverMessage).toBeUndefined();
      expect(error.message).toBe('Request failed with status 502');
    }
  });

  it('drops malformed field errors', () => {
    expect(
      parseApiError(400, '{"message":"x","fieldErrors":{"a":"not a list"}}').fieldErrors,
    ).toBeUndefined();
  });
});

describe('errorMessage', () => {
  it('prefers the server message, else the fallback', () => {
    expect(
      errorMessage(
        new ApiError(409, 'Username is already taken.', 'CONFLICT', undefined),
        'Registration failed',
      ),
    ).toBe('Username is already taken.');
    expect(errorMessage(new ApiError(500, undefined, undefined, undefined), 'Registration failed')).toBe(
      'Registration failed',
    );
    expect(errorMessage(new TypeError('Failed to fetch'), 'Login failed')).toBe('Login failed');
  });
});

describe('apiRequest', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  const jsonResponse = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('calls /api with credentials, JSON and the stored token as a bearer header', async () => {
    storeToken('t.o.k');
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));
    await expect(api.post('/auth/login', { username: 'a' })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/login');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"username":"a"}');
    expect(init?.headers).toMatchObject({
      Accept: 'application/json',
      Authorization: 'Bearer t.o.k',
      'Content-Type': 'application/json',
    });
  });

  it('sends FormData as is and no bearer header without a token', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true }));
    const form = new FormData();
    form.append('profilePicture', new Blob(['x'], { type: 'image/png' }), 'x.png');
    await api.post('/user-profile/upload-picture', form);
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBe(form);
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it('throws an ApiError with the server message for a non-2xx answer', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(409, { message: 'Username is already taken.', code: 'CONFLICT' }),
    );
    const error = await api.post('/auth/register', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).serverMessage).toBe('Username is already taken.');
  });

  it('answers undefined for an empty 2xx body', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(api.delete('/x')).resolves.toBeUndefined();
  });

  it('reports a refused token, but not a failed sign-in without one', async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    fetchMock.mockImplementation(async () =>
      jsonResponse(401, { message: 'Invalid username or password.', code: 'UNAUTHENTICATED' }),
    );
    await api.post('/auth/login', {}).catch(() => undefined);
    expect(listener).not.toHaveBeenCalled();
    storeToken('old.to.ken');
    await api.get('/user-profile').catch(() => undefined);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
  });
});
