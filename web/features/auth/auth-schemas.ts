import { useEffect } from 'react';

/**
 * The contract's schemas of the forms every page carries (sign-in, registration, the reset-password
 * request), loaded when such a form shows rather than with the page: they bring zod, which the landing
 * page does not download (its JavaScript budget: scripts/bundle-size.mjs, e2e/weight.spec.ts). Null
 * when they could not be loaded: the form then sends as it is, and the server's check alone answers.
 */
export const loadAuthSchemas = () =>
  import('../../../contract/auth').catch((error: unknown) => {
    console.warn('The sign-in forms’ checks could not be loaded:', error);
    return null;
  });

/** Starts loading the schemas as the form shows, so that they are there when it is sent. */
export function usePreloadedAuthSchemas() {
  useEffect(() => {
    void loadAuthSchemas();
  }, []);
}
