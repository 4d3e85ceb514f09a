import { type BrowserContext, test as base, type Page } from '@playwright/test';
import { createVerifiedUser, signIn, type TestUser, uniqueUsername } from './users';

/** A user with their own browser (context), already signed in. */
export type Actor = { user: TestUser; context: BrowserContext; page: Page; token: string };

type Fixtures = {
  /** Creates a verified user (`name` is the start of the username) signed in in a browser context of their own. */
  newActor: (name: string) => Promise<Actor>;
  alice: Actor;
  bob: Actor;
  carol: Actor;
  dave: Actor;
};

/**
 * The journeys' `test`: `alice`, `bob`, `carol` and `dave` are four different signed-in users,
 * each with their own cookies and page, created only when a test asks for them; `newActor` makes more.
 * The plain `page` fixture stays a signed-out visitor.
 */
export const test = base.extend<Fixtures>({
  newActor: async ({ browser, playwright, baseURL }, use) => {
    const contexts: BrowserContext[] = [];
    const api = await playwright.request.newContext({ baseURL });
    await use(async (name) => {
      const user = await createVerifiedUser(api, { username: uniqueUsername(name) });
      const context = await browser.newContext({ baseURL });
      contexts.push(context);
      // The account was made, and first signed in, from this machine: the browser carries that sign-in's
      // device cookie, so its own sign-in is no "new device" (whose notification and mail the journeys
      // about other things do not expect).
      await context.addCookies((await api.storageState()).cookies);
      const page = await context.newPage();
      const token = await signIn(page, user);
      return { user, context, page, token };
    });
    await Promise.all(contexts.map((context) => context.close()));
    await api.dispose();
  },

  alice: async ({ newActor }, use) => use(await newActor('alice')),
  bob: async ({ newActor }, use) => use(await newActor('bob')),
  carol: async ({ newActor }, use) => use(await newActor('carol')),
  dave: async ({ newActor }, use) => use(await newActor('dave')),
});

export { expect } from '@playwright/test';
export { readLastMail } from './mail';
export { createVerifiedUser, login, signIn, uniqueUsername } from './users';
