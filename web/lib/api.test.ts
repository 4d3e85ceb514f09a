import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, errorMessage, onUnauthorized, parseApiError, setStepUpHandler } from './api';
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

describe('apiRequest and step-up', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let unregister: (() => void) | undefined;
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    unregister?.();
    unregister = undefined;
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  const stepUpRequired = () =>
    new Response(JSON.stringify({ message: 'Please confirm it is you first.', code: 'STEP_UP_REQUIRED' }), {
      status: 403,
    });
  const withdrawal = () =>
    api.post('/wallet/withdraw', { amount: 10 }, { headers: { 'Idempotency-Key': 'k-1' } });

  it('asks the handler, then sends the same request again and answers with its result', async () => {
    fetchMock
      .mockResolvedValueOnce(stepUpRequired())
      .mockResolvedValueOnce(new Response('{"wallet":{"balance":5}}', { status: 200 }));
    const handler = vi.fn(async () => {});
    unregister = setStepUpHandler(handler);

    await expect(withdrawal()).resolves.toEqual({ wallet: { balance: 5 } });
    expect(handler).toHaveBeenCalledTimes(1);
    const refusal = handler.mock.calls[0] as unknown as [ApiError];
    expect(refusal[0].serverMessage).toBe('Please confirm it is you first.');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [first, second] = fetchMock.mock.calls;
    expect(second![0]).toBe(first![0]);
    expect(second![1]?.method).toBe('POST');
    expect(second![1]?.body).toBe('{"amount":10}');
    expect(second![1]?.headers).toMatchObject({ 'Idempotency-Key': 'k-1' });
  });

  it('fails with the original refusal when the person gives up, and sends nothing more', async () => {
    fetchMock.mockResolvedValue(stepUpRequired());
    unregister = setStepUpHandler(async () => {
      throw new Error('cancelled');
    });
    const error = await withdrawal().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('STEP_UP_REQUIRED');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('retries once only: a second refusal is the answer', async () => {
    fetchMock.mockImplementation(async () => stepUpRequired());
    const handler = vi.fn(async () => {});
    unregister = setStepUpHandler(handler);
    const error = await withdrawal().catch((caught: unknown) => caught);
    expect((error as ApiError).code).toBe('STEP_UP_REQUIRED');
    expect(handler).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('leaves other refusals, and every refusal without a handler, alone', async () => {
    const handler = vi.fn(async () => {});
    unregister = setStepUpHandler(handler);
    fetchMock.mockResolvedValueOnce(
      new Response('{"message":"That code is not right.","code":"INVALID_SECOND_FACTOR"}', { status: 403 }),
    );
    await expect(api.post('/auth/step-up', { code: '000000' })).rejects.toBeInstanceOf(ApiError);
    expect(handler).not.toHaveBeenCalled();

    unregister();
    fetchMock.mockResolvedValueOnce(stepUpRequired());
    await expect(withdrawal()).rejects.toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(handler).not.toHaveBeenCalled();
  });

  it('hands the refusal of an ended session to the sign-out listeners', async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    storeToken('old.to.ken');
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({
          message: 'You were signed out because this session was ended from another device.',
          code: 'SESSION_ENDED',
        }),
        { status: 401 },
      ),
    );
    await api.get('/wallet').catch(() => undefined);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]![0]).toMatchObject({
      code: 'SESSION_ENDED',
      serverMessage: 'You were signed out because this session was ended from another device.',
    });
    stop();
  });
});
