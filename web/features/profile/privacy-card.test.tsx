import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OwnProfile, Privacy } from '../../../contract/users';
import { cleanup, click, getButton, getByLabel, renderInApp, waitFor } from '../../test/render';
import { PrivacyCard } from './privacy-card';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

const profile = (privacy: Privacy): OwnProfile => ({
  id: 7,
  username: 'bob',
  email: 'bob@example.test',
  full_name: 'Bob Stone',
  createdAt: '2025-03-04T10:00:00.000Z',
  updatedAt: '2025-03-04T10:00:00.000Z',
  profile: { profile_picture: null, date_of_birth: '1990-01-02', address: '1 Main St', occupation: null },
  privacy,
});
const defaults: Privacy = { email: 'deal-partners', dateOfBirth: 'deal-partners', address: 'deal-partners' };

/** Picks an option the way React notices (the native value setter, then a change event). */
async function choose(select: HTMLElement, value: string) {
  if (!(select instanceof HTMLSelectElement)) throw new Error('choose needs a select');
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')?.set?.call(select, value);
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const selectIn = (container: HTMLElement, label: string) => getByLabel(container, label) as HTMLSelectElement;
const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');

describe('PrivacyCard', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('shows a labelled select per private detail with the saved choice and the three options', async () => {
    fetchMock.mockResolvedValue(json(profile({ ...defaults, email: 'only-me' })));
    const { container } = await renderInApp(<PrivacyCard />);
    await waitFor(() => selectIn(container, 'Email'));

    expect(container.querySelector('h2')?.textContent).toBe('Privacy');
    expect(container.querySelector('section')?.getAttribute('aria-labelledby')).toBe(
      container.querySelector('h2')?.id,
    );
    expect(selectIn(container, 'Email').value).toBe('only-me');
    expect(selectIn(container, 'Date of Birth').value).toBe('deal-partners');
    expect(selectIn(container, 'Address').value).toBe('deal-partners');
    const options = [...selectIn(container, 'Address').options].map((option) => option.textContent);
    expect(options).toEqual(['Everyone', 'People I share a deal with', 'Only me']);
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual(['/api/user-profile']);
  });

  it('saves the choices with PUT /user-profile/privacy and says so', async () => {
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'PUT'
        ? json({ email: 'only-me', dateOfBirth: 'everyone', address: 'deal-partners' })
        : json(profile(defaults)),
    );
    const { container } = await renderInApp(<PrivacyCard />);
    await waitFor(() => selectIn(container, 'Email'));

    await choose(selectIn(container, 'Email'), 'only-me');
    await choose(selectIn(container, 'Date of Birth'), 'everyone');
    await click(getButton(container, 'Save privacy settings'));

    await waitFor(() =>
      expect(container.querySelector('[role="status"]')?.textContent).toContain('Privacy settings saved.'),
    );
    expect(puts()).toHaveLength(1);
    const [input, init] = puts()[0]!;
    expect(String(input)).toBe('/api/user-profile/privacy');
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'only-me',
      dateOfBirth: 'everyone',
      address: 'deal-partners',
    });
    expect(selectIn(container, 'Email').value).toBe('only-me');
    expect(selectIn(container, 'Date of Birth').value).toBe('everyone');
  });

  it("shows the failure with the server's reason and keeps the choice", async () => {
    const reason = 'Who sees your email: choose everyone, deal-partners or only-me';
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'PUT'
        ? json({ message: reason, code: 'VALIDATION_FAILED' }, 400)
        : json(profile(defaults)),
    );
    const { container } = await renderInApp(<PrivacyCard />);
    await waitFor(() => selectIn(container, 'Email'));

    await choose(selectIn(container, 'Address'), 'everyone');
    await click(getButton(container, 'Save privacy settings'));

    const alert = await waitFor(() => container.querySelector('[role="alert"]'));
    expect(alert.textContent).toContain('Failed to save privacy settings.');
    expect(alert.textContent).toContain(reason);
    expect(selectIn(container, 'Address').value).toBe('everyone');
    expect(container.querySelector('[role="status"]')).toBeNull();
  });

  it('offers a retry when the settings cannot load', async () => {
    fetchMock.mockResolvedValue(json({ message: 'boom', code: 'INTERNAL_ERROR' }, 500));
    const { container } = await renderInApp(<PrivacyCard />);
    await waitFor(() => expect(container.textContent).toContain('Failed to load privacy settings'));
    expect(container.querySelector('select')).toBeNull();
  });
});
