import { describe, expect, it } from 'vitest';
import { pictureFileProblem, toProfileUpdate } from './profile-api';

describe('pictureFileProblem', () => {
  it('accepts images up to 5 MB', () => {
    expect(pictureFileProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(pictureFileProblem({ type: 'image/jpeg', size: 5 * 1024 * 1024 })).toBeNull();
  });

  it('refuses other files and larger images with the spec texts', () => {
    expect(pictureFileProblem({ type: 'application/pdf', size: 10 })).toBe('Please select an image file');
    expect(pictureFileProblem({ type: '', size: 10 })).toBe('Please select an image file');
    expect(pictureFileProblem({ type: 'image/gif', size: 5 * 1024 * 1024 + 1 })).toBe(
      'File size should be less than 5MB',
    );
  });
});

describe('toProfileUpdate', () => {
  it('builds the payload of spec §3, with null for an empty date of birth', () => {
    expect(
      toProfileUpdate({ full_name: ' Ada ', date_of_birth: '', address: ' 1 Main St ', occupation: '' }),
    ).toEqual({
      full_name: 'Ada',
      password_reset_token: null,
      date_of_birth: null,
      address: '1 Main St',
      occupation: '',
    });
    expect(
      toProfileUpdate({ full_name: 'Ada', date_of_birth: '1990-05-17', address: '', occupation: 'Analyst' })
        .date_of_birth,
    ).toBe('1990-05-17');
  });
});
