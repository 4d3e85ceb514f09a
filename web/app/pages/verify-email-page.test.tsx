import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderInApp, waitFor } from '../../test/render';
import { VerifyEmailPage } from './verify-email-page';

const fetchMock = vi.fn<typeof fetch>();

describe('VerifyEmailPage', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  const renderAt = (path: string) =>
    renderInApp(<VerifyEmailPage />, { path, routePath: '/api/auth/register/:key?' });

  it('asks the API (as JSON) once, then shows success with the default message', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { container } = await renderAt('/api/auth/register/abc123');
    expect(container.querySelector('h1')?.textContent).toBe('Verifying your email...');
    answer(new Response('{}', { status: 200 }));
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Success!'));
    expect(container.textContent).toContain('Your email has been verified successfully!');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/register/abc123');
    expect(init?.headers).toMatchObject({ Accept: 'application/json' });
  });

  it('shows the server message on failure', async () => {
    fetchMock.mockResolvedValue(
      new Response(
        '{"message":"This verification link is invalid or has expired.","code":"VALIDATION_FAILED"}',
        {
          status: 400,
        },
      ),
    );
    const { container } = await renderAt('/api/auth/register/nope');
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Error'));
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'This verification link is invalid or has expired.',
    );
  });

  it('needs a key', async () => {
    const { container } = await renderAt('/api/auth/register');
    expect(container.querySelector('h1')?.textContent).toBe('Error');
    expect(container.textContent).toContain('Invalid verification link - missing token.');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
