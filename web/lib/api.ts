import type { ErrorBody } from '../../contract/errors';
import { getStoredToken } from './auth-token';

const apiBase = '/api';

/** A non-2xx answer of the API; `serverMessage` is the server's own words for it, when it sent any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
    readonly code: string | undefined,
    readonly fieldErrors: Record<string, string[]> | undefined,
  ) {
    super(serverMessage ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
}

/** Builds the ApiError for a failed response from its status and body text (JSON `{message, code, fieldErrors?}`). */
export function parseApiError(status: number, bodyText: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return new ApiError(status, undefined, undefined, undefined);
  }
  if (typeof body !== 'object' || body === null) return new ApiError(status, undefined, undefined, undefined);
  const { message, code, fieldErrors } = body as Partial<Record<keyof ErrorBody, unknown>>;
  return new ApiError(
    status,
    typeof message === 'string' && message ? message : undefined,
    typeof code === 'string' ? code : undefined,
    isFieldErrors(fieldErrors) ? fieldErrors : undefined,
  );
}

function isFieldErrors(value: unknown): value is Record<string, string[]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every(
      (messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string'),
    )
  );
}

/** The server's message of a failed call, else the screen's own fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** The server's reason for a refusal, to show under the screen's own message; undefined when it gave none. */
export function serverReason(error: unknown): string | undefined {
  return errorMessage(error, '') || undefined;
}

type UnauthorizedListener = (refusal: ApiError) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/**
 * Called when the server refuses the stored token (expired, revoked by a password reset, its session
 * ended from another device: code SESSION_ENDED, with the server's words for it).
 */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * Asked when a call needs a second factor given in the last minutes (403 STEP_UP_REQUIRED): resolves
 * once the person confirmed it is them, rejects when they gave up. Registered by the screen layer (the
 * auth feature's step-up dialog), so this client knows no feature.
 */
export type StepUpHandler = (refusal: ApiError) => Promise<void>;
let stepUpHandler: StepUpHandler | null = null;

/** Makes `handler` the one asked for step-ups; returns what unregisters it. */
export function setStepUpHandler(handler: StepUpHandler): () => void {
  stepUpHandler = handler;
  return () => {
    if (stepUpHandler === handler) stepUpHandler = null;
  };
}

export const isStepUpRequired = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 403 && error.code === 'STEP_UP_REQUIRED';

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as is when it is FormData. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/**
 * Every call to the API goes through here: base /api, cookies included, the stored token as a
 * bearer header, JSON both ways. Throws ApiError for any non-2xx answer. A call refused for want of a
 * recent second factor asks the step-up handler, and once the person confirmed it is them it is sent
 * again (once) and its answer is the call's: the screen that asked never knows. When they give up, the
 * call fails with the first refusal.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await send<T>(path, options);
  } catch (error) {
    const handler = stepUpHandler;
    if (!isStepUpRequired(error) || !handler) throw error;
    try {
      await handler(error);
    } catch {
      throw error;
    }
    return send<T>(path, options);
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const token = getStoredToken();
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const response = await fetch(`${apiBase}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body,
    credentials: 'include',
    signal: options.signal,
  });
  const text = await response.text();
  if (!response.ok) {
    const refusal = parseApiError(response.status, text);
    // Only a refusal of the token we still hold signs out; a wrong password at sign-in is a 401 too.
    if (response.status === 401 && token && token === getStoredToken()) {
      for (const listener of unauthorizedListeners) listener(refusal);
    }
    throw refusal;
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** Encodes one path segment (usernames, tokens) for use in an API path. */
export const segment = (value: string | number) => encodeURIComponent(String(value));
