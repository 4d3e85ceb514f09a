import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JoinRequest } from '../../../contract/deal-changes';
import type { Deal, DealCan } from '../../../contract/deals';
import { makeDeal } from '../../test/deal-fixtures';
import { cleanup, getButton, getByLabel, renderInApp, typeInto, waitFor } from '../../test/render';
import { jsonResponse as json } from '../../test/session-fixtures';
import { CreateDealDialog } from './create-deal-dialog';
import { DealCreatorSection } from './deal-creator-section';
import { DealJoinRequestsSection } from './deal-join-requests-section';
import { dealViewerOf } from './deal-viewer';
import { DealVisitorSection } from './deal-visitor-section';

const fetchMock = vi.fn<typeof fetch>();
type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;

function route(handlers: Record<string, Handler>) {
  fetchMock.mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const handler = handlers[key];
    if (!handler) throw new Error(`Unexpected call ${key}`);
    return handler(init);
  });
}
const bodiesOf = (key: string) =>
  fetchMock.mock.calls
    .filter(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}` === key)
    .map(([, init]) => JSON.parse(String(init?.body ?? 'null')));

/** The open dialog (dialogs render outside the container). */
const dialog = () => {
  const open = document.querySelector('[role="dialog"], [role="alertdialog"]');
  if (!open) throw new Error('No dialog is open');
  return open;
};
const text = () => document.body.textContent ?? '';
/**
 * Submits the open dialog's form, as its footer's submit button does (happy-dom follows neither `form=`
 * nor decimal steps: the browser's own checks are not what these tests are about).
 */
const submitDialog = () =>
  act(async () => {
    dialog()
      .querySelector('form')
      ?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
/** A choice of the Create Deal dialog's 'Who can join'. */
const joinChoice = (value: string) => dialog().querySelector<HTMLInputElement>(`input[value="${value}"]`)!;

const request = (overrides: Partial<JoinRequest> = {}): JoinRequest => ({
  id: 7,
  dealId: 1,
  requester: { username: 'bob', full_name: 'Bob Builder' },
  message: 'I run a roastery in Lyon.',
  status: 'pending',
  createdAt: '2024-05-02T09:30:00.000Z',
  decidedAt: null,
  ...overrides,
});

const approvalDeal = (can: DealCan, overrides: Partial<Deal> = {}) =>
  makeDeal({ joinPolicy: 'approval', can, ...overrides });

async function renderSection(Section: typeof DealVisitorSection, deal: Deal, viewer: string) {
  return renderInApp(<Section deal={deal} viewer={dealViewerOf(deal, viewer)} />);
}

describe('creator controls and asking to join', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('creates a deal whose creator approves who joins', async () => {
    route({ 'POST /api/deals/create-deal': () => json(makeDeal({ joinPolicy: 'approval' }), 201) });
    await renderInApp(<CreateDealDialog open onOpenChange={() => {}} onFlash={() => {}} />);
    expect(joinChoice('open').checked).toBe(true);
    expect(document.getElementById(joinChoice('open').getAttribute('aria-labelledby')!)?.textContent).toBe(
      'Anyone can join',
    );
    await typeInto(getByLabel(dialog(), 'Title'), 'Coffee distribution');
    await typeInto(getByLabel(dialog(), 'Description'), 'A partner for organic coffee');
    await typeInto(getByLabel(dialog(), 'Budget ($)'), '5000');
    await typeInto(getByLabel(dialog(), 'Timeline'), '3 months');
    await act(async () => joinChoice('approval').click());
    expect(joinChoice('approval').checked).toBe(true);
    await submitDialog();
    await waitFor(() => expect(bodiesOf('POST /api/deals/create-deal')).toHaveLength(1));
    expect(bodiesOf('POST /api/deals/create-deal')[0]).toEqual({
      title: 'Coffee distribution',
      description: 'A partner for organic coffee',
      budget: 5000,
      timeline: '3 months',
      joinPolicy: 'approval',
    });
  });

  it('asks to join with a message, then says the request waits and offers no button', async () => {
    const deal = approvalDeal({ askToJoin: true, bid: true });
    let asked: JoinRequest[] = [];
    route({
      'GET /api/deals/1/join-requests': () => json(asked),
      'POST /api/deals/1/join-requests': () => {
        asked = [request()];
        return json(request(), 201);
      },
    });
    const { container } = await renderSection(DealVisitorSection, deal, 'bob');
    await waitFor(() => getButton(container, 'Ask to Join'));
    expect(container.textContent).not.toContain('Join Deal');
    await act(async () => getButton(container, 'Ask to Join').click());
    // The dialog's code is downloaded when it is first opened (lib/loaded-when-opened.tsx).
    await waitFor(() => dialog());
    await typeInto(getByLabel(dialog(), 'Message (optional)'), '  I run a roastery in Lyon.  ');
    await submitDialog();
    await waitFor(() => expect(container.textContent).toContain('Request to join sent successfully!'));
    expect(bodiesOf('POST /api/deals/1/join-requests')).toEqual([{ message: 'I run a roastery in Lyon.' }]);
    expect(container.textContent).toContain('Request sent — waiting for the creator');
    expect([...container.querySelectorAll('button')].map((b) => b.textContent)).not.toContain('Ask to Join');
  });

  it('says a declined request was declined, and lets the viewer ask again', async () => {
    const deal = approvalDeal({ askToJoin: true });
    route({
      'GET /api/deals/1/join-requests': () =>
        json([request({ status: 'declined', decidedAt: '2024-05-03T09:30:00.000Z' })]),
    });
    const { container } = await renderSection(DealVisitorSection, deal, 'bob');
    await waitFor(() => expect(container.textContent).toContain('Your request to join was declined.'));
    expect(getButton(container, 'Ask to Join')).toBeTruthy();
  });

  it("lists the creator's pending requests with the requester's profile, and accepts one", async () => {
    const deal = approvalDeal({ edit: true, delete: true });
    const accepted = request({ status: 'accepted', decidedAt: '2024-05-03T09:30:00.000Z' });
    route({
      'GET /api/deals/1/join-requests': () =>
        json([
          request(),
          request({ id: 6, status: 'declined', requester: { username: 'erin', full_name: 'Erin' } }),
        ]),
      'POST /api/deals/1/join-requests/7/accept': () =>
        json({
          message: 'bob is now the counterpart of this deal.',
          request: accepted,
          deal: { ...deal, dealer_joined: 'bob' },
        }),
    });
    const { container } = await renderSection(DealJoinRequestsSection, deal, 'alice');
    await waitFor(() => expect(container.textContent).toContain('I run a roastery in Lyon.'));
    // Only the pending one, its requester linked to their profile.
    expect(container.querySelectorAll('article')).toHaveLength(1);
    expect(container.querySelector('a[href="/users/bob"]')?.textContent).toBe('@bob');
    expect(container.textContent).not.toContain('@erin');
    await act(async () => getButton(container, 'Accept').click());
    await waitFor(() => expect(container.textContent).toContain('Request accepted successfully!'));
    expect(fetchMock.mock.calls.some(([input]) => String(input).endsWith('/7/accept'))).toBe(true);
  });

  it('shows no Requests to join on an open deal, nor once a counterpart joined', async () => {
    route({});
    const open = await renderSection(DealJoinRequestsSection, makeDeal({ can: { edit: true } }), 'alice');
    expect(open.container.textContent).toBe('');
    const joined = approvalDeal({ edit: true }, { dealer_joined: 'bob' });
    const staffed = await renderSection(DealJoinRequestsSection, joined, 'alice');
    expect(staffed.container.textContent).toBe('');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('edits the deal prefilled, sending only what changed', async () => {
    const deal = makeDeal({ can: { edit: true, delete: true } });
    route({ 'PATCH /api/deals/1': () => json({ ...deal, budget: 6000 }) });
    const { container } = await renderSection(DealCreatorSection, deal, 'alice');
    // Delete Deal stays on the Deals page and in My Deals.
    expect(container.textContent).not.toContain('Delete Deal');
    await act(async () => getButton(container, 'Edit Deal').click());
    await waitFor(() => dialog());
    expect((getByLabel(dialog(), 'Title') as HTMLInputElement).value).toBe('Coffee distribution');
    expect((getByLabel(dialog(), 'Budget ($)') as HTMLInputElement).value).toBe('5000');
    await submitDialog();
    expect(dialog().textContent).toContain(
      'Nothing to change: send a title, description, budget or timeline',
    );
    expect(fetchMock).not.toHaveBeenCalled();
    await typeInto(getByLabel(dialog(), 'Budget ($)'), '6000');
    await submitDialog();
    await waitFor(() => expect(container.textContent).toContain('Deal updated successfully!'));
    expect(bodiesOf('PATCH /api/deals/1')).toEqual([{ budget: 6000 }]);
  });

  it('shows the server’s refusal of an edit in the dialog', async () => {
    const deal = makeDeal({ can: { edit: true } });
    route({
      'PATCH /api/deals/1': () =>
        json({ message: 'This deal has its dealmaker: it can no longer be edited.', code: 'CONFLICT' }, 409),
    });
    const { container } = await renderSection(DealCreatorSection, deal, 'alice');
    await act(async () => getButton(container, 'Edit Deal').click());
    await waitFor(() => dialog());
    await typeInto(getByLabel(dialog(), 'Title'), 'Tea distribution');
    await submitDialog();
    await waitFor(() => expect(dialog().textContent).toContain('Failed to update deal.'));
    expect(dialog().textContent).toContain('This deal has its dealmaker: it can no longer be edited.');
  });

  it('removes the counterpart once the confirmation is answered', async () => {
    const deal = makeDeal({ dealer_joined: 'bob', can: { removeCounterpart: true } });
    route({ 'DELETE /api/deals/1/counterpart': () => json({ ...deal, dealer_joined: null, can: {} }) });
    const { container } = await renderSection(DealCreatorSection, deal, 'alice');
    await act(async () => getButton(container, 'Remove Counterpart').click());
    // The confirmation's code is downloaded when it is first asked (components/ui/confirm-dialog.tsx).
    await waitFor(() => dialog());
    expect(dialog().getAttribute('role')).toBe('alertdialog');
    expect(dialog().textContent).toContain(
      "Remove @bob from 'Coffee distribution'. Their bid selection goes with them, and another dealer may join in their place.",
    );
    expect(fetchMock).not.toHaveBeenCalled();
    await act(async () => getButton(dialog(), 'Remove Counterpart').click());
    await waitFor(() => expect(text()).toContain('Counterpart removed successfully!'));
    expect(bodiesOf('DELETE /api/deals/1/counterpart')).toHaveLength(1);
  });
});
