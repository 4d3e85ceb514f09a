import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '../../test/render';
import { Avatar, initialsOf } from './avatar';

describe('Avatar', () => {
  afterEach(cleanup);

  it('shows the picture when there is one', async () => {
    const { container } = await render(
      <Avatar src="/uploads/profile-pictures/ab.webp" name="Ada Lovelace" />,
    );
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/uploads/profile-pictures/ab.webp');
    expect(img.getAttribute('alt')).toBe('Ada Lovelace');
  });

  it('shows initials without a picture, and when the picture fails to load', async () => {
    const { container } = await render(<Avatar src={null} name="Ada Lovelace" />);
    expect(container.querySelector('[role="img"]')?.textContent).toBe('AL');

    const broken = await render(<Avatar src="/missing.webp" name="grace" />);
    await act(async () => broken.container.querySelector('img')!.dispatchEvent(new Event('error')));
    expect(broken.container.querySelector('img')).toBeNull();
    expect(broken.container.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('grace');
    expect(broken.container.textContent).toBe('G');
  });

  it('computes initials from the first and last word', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('  mary ann  evans ')).toBe('ME');
    expect(initialsOf('x')).toBe('X');
    expect(initialsOf('   ')).toBe('?');
  });
});
