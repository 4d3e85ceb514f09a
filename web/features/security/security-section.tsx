import { useId } from 'react';
import { AuthenticatorAppCard } from './authenticator-app-card';
import { ChangeEmailCard } from './change-email-card';
import { ChangePasswordCard } from './change-password-card';
import { PasskeysCard } from './passkeys-card';
import { SessionsCard } from './sessions-card';
import { useScrollIntoViewWhenLinked } from './use-scroll-into-view';

/** The anchor of the section: mails about the account's security link to /profile#security. */
export const securitySectionId = 'security';

/** My Profile's Security section: second factors, passkeys, sessions, password and email. */
export function SecuritySection() {
  const titleId = useId();
  const section = useScrollIntoViewWhenLinked<HTMLElement>(securitySectionId);
  return (
    <section
      id={securitySectionId}
      ref={section}
      aria-labelledby={titleId}
      className="scroll-mt-20 space-y-4"
    >
      <div>
        <h2 id={titleId} className="text-xl font-semibold text-slate-900">
          Security
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Protect your account and your wallet: a stolen password alone cannot sign in once a second factor is
          on, and money leaves only after you confirm it is you.
        </p>
      </div>
      <AuthenticatorAppCard />
      <PasskeysCard />
      <SessionsCard />
      <ChangePasswordCard />
      <ChangeEmailCard />
    </section>
  );
}
