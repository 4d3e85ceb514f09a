import { useState } from 'react';
import type { Notice } from '../../components/ui/alert';
import { serverReason } from '../../lib/api';
import { useTimedMessage } from '../../lib/use-timed-message';
import {
  type TotpSetup,
  useConfirmTotp,
  useDisableTotp,
  useNewRecoveryCodes,
  useSecurityStatus,
  useStartTotpSetup,
} from './security-api';

/** Where the authenticator-app card is: showing its state, scanning a new secret, showing codes, turning off. */
export type AuthenticatorStage =
  | { kind: 'idle' }
  | { kind: 'setup'; setup: TotpSetup }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'turning-off' };

/**
 * The authenticator app's life: Turn on → scan the QR code (or type the key) → confirm with a code →
 * the recovery codes, once; when on: new recovery codes, or Turn off with the password and a code.
 * A step-up the server asks for on the way is answered by the step-up dialog (web/lib/api.ts).
 */
export function useAuthenticatorApp() {
  const status = useSecurityStatus();
  const [stage, setStage] = useState<AuthenticatorStage>({ kind: 'idle' });
  const [notice, showNotice] = useTimedMessage<Notice>(6000);
  const start = useStartTotpSetup();
  const confirm = useConfirmTotp();
  const disable = useDisableTotp();
  const renew = useNewRecoveryCodes();
  const failed = (text: string) => (error: unknown) =>
    showNotice({ tone: 'error', text, detail: serverReason(error) });

  const turnOn = () => {
    showNotice(null);
    start.mutate(undefined, {
      onSuccess: (setup) => setStage({ kind: 'setup', setup }),
      onError: failed('The authenticator app could not be set up.'),
    });
  };

  const confirmCode = (code: string) =>
    confirm.mutate(code, {
      onSuccess: ({ recoveryCodes }) => setStage({ kind: 'codes', codes: recoveryCodes }),
    });

  const turnOff = (input: { password: string; code: string }) =>
    disable.mutate(input, {
      onSuccess: (answer) => {
        setStage({ kind: 'idle' });
        showNotice({ tone: 'success', text: answer.message || 'The authenticator app is turned off.' });
      },
    });

  const newRecoveryCodes = () =>
    renew
      .mutateAsync()
      .then(
        ({ recoveryCodes }) => setStage({ kind: 'codes', codes: recoveryCodes }),
        failed('New recovery codes could not be made.'),
      );

  const backToIdle = () => {
    confirm.reset();
    disable.reset();
    setStage({ kind: 'idle' });
  };

  return {
    status,
    stage,
    notice,
    turnOn,
    starting: start.isPending,
    confirmCode,
    confirming: confirm,
    startTurningOff: () => {
      showNotice(null);
      setStage({ kind: 'turning-off' });
    },
    turnOff,
    turningOff: disable,
    newRecoveryCodes,
    backToIdle,
  };
}
