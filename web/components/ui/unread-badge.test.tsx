import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '../../test/render';
import { UnreadBadge, unreadBadgeLabel, unreadBadgeText } from './unread-badge';

describe('UnreadBadge', () => {
  afterEach(() => cleanup());

  it('reads "3 unread", and "3 unread messages" to a screen reader', () => {
    expect(unreadBadgeText(3)).toBe('3 unread');
    expect(unreadBadgeLabel(3)).toBe('3 unread messages');
    expect(unreadBadgeLabel(1)).toBe('1 unread message');
  });

  it('shows the count, and nothing without unread messages', async () => {
    const { container } = await render(
      <>
        <UnreadBadge count={3} />
        <UnreadBadge count={0} />
        <UnreadBadge count={undefined} />
      </>,
    );
    expect(container.querySelectorAll('[data-unread-badge]')).toHaveLength(1);
    expect(container.querySelector('[data-unread-badge]')?.textContent).toBe('3 unread');
    expect(container.querySelector('[data-unread-badge]')?.getAttribute('aria-hidden')).toBe('true');
    expect(container.querySelector('.sr-only')?.textContent).toBe('3 unread messages');
  });
});
