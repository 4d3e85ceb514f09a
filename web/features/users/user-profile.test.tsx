import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '../../../contract/users';
import { cleanup, render } from '../../test/render';
import { UserProfileDetails } from './user-profile';

const base: User = {
  id: 3,
  username: 'bob',
  full_name: 'Bob Stone',
  createdAt: '2025-03-04T10:00:00.000Z',
  updatedAt: '2025-03-05T10:00:00.000Z',
  profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
};

const labels = (container: HTMLElement) => [...container.querySelectorAll('dt')].map((dt) => dt.textContent);

describe('UserProfileDetails', () => {
  afterEach(cleanup);

  it('shows the email, date of birth and address when present', async () => {
    const { container } = await render(
      <UserProfileDetails
        user={{
          ...base,
          email: 'bob@example.test',
          profile: {
            ...base.profile,
            date_of_birth: '1990-01-02',
            address: '1 Main St',
            occupation: 'Broker',
          },
        }}
      />,
    );
    expect(labels(container)).toEqual([
      'Username',
      'Full Name',
      'Email',
      'Member Since',
      'Last Updated',
      'Occupation',
      'Date of Birth',
      'Address',
    ]);
    expect(container.textContent).toContain('bob@example.test');
    expect(container.textContent).toContain('1 Main St');
  });

  it('leaves out the rows of details the viewer may not see: no empty label, no "undefined"', async () => {
    const { container } = await render(<UserProfileDetails user={base} />);
    expect(labels(container)).toEqual(['Username', 'Full Name', 'Member Since', 'Last Updated']);
    expect(container.textContent).not.toMatch(/undefined|null|—/);
  });
});
