import { NoticeAlert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { ErrorRetry } from '../../components/ui/error-retry';
import { LoadingState } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { SecurityCard } from './security-card';
import { TotpDisableForm } from './totp-disable-form';
import { TotpSetupForm } from './totp-setup-form';
import { useAuthenticatorApp } from './use-authenticator-app';

/** Two-factor sign-in with an authenticator app: turn it on (QR code, code, recovery codes) or off. */
export function AuthenticatorAppCard() {
  const app = useAuthenticatorApp();
  const status = app.status.data;
  const confirmation = useConfirmation();

  const askForNewCodes = () =>
    confirmation.ask({
      title: 'Make new recovery codes?',
      message: 'Your current recovery codes stop working at once, and you get ten new ones to save.',
      confirmLabel: 'Make new codes',
      busyLabel: 'Making codes...',
      onConfirm: app.newRecoveryCodes,
    });

  return (
    <SecurityCard
      title="Authenticator app"
      description="Sign in with a code from an app such as Google Authenticator, 1Password or Authy as well as your password."
      badge={status && (status.totp ? <Badge tone="green">On</Badge> : <Badge>Off</Badge>)}
    >
      {app.notice && <NoticeAlert notice={app.notice} />}
      {app.status.isPending ? (
        <LoadingState label="Loading your sign-in methods..." className="py-6" />
      ) : app.status.isError || !status ? (
        <ErrorRetry detail={serverReason(app.status.error)} onRetry={app.status.refetch}>
          Your sign-in methods could not be loaded.
        </ErrorRetry>
      ) : app.stage.kind === 'setup' ? (
        <TotpSetupForm
          setup={app.stage.setup}
          confirming={app.confirming}
          onConfirm={app.confirmCode}
          onCancel={app.backToIdle}
        />
      ) : app.stage.kind === 'codes' ? (
        <RecoveryCodesPanel codes={app.stage.codes} onDone={app.backToIdle} />
      ) : app.stage.kind === 'turning-off' ? (
        <TotpDisableForm disabling={app.turningOff} onSubmit={app.turnOff} onCancel={app.backToIdle} />
      ) : (
        <>
          {status.totp ? (
            <Button variant="outline" onClick={app.startTurningOff}>
              Turn off
            </Button>
          ) : (
            <Button onClick={app.turnOn} loading={app.starting}>
              {app.starting ? 'Starting...' : 'Turn on'}
            </Button>
          )}
          {/* Recovery codes come with the first second factor, an app or a passkey. */}
          {(status.totp || status.passkeys > 0) && (
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-slate-50 px-4 py-3">
              <p className="text-sm text-slate-700">
                Recovery codes left: <span className="font-semibold">{status.recoveryCodesLeft}</span>
              </p>
              <Button variant="outline" size="sm" onClick={askForNewCodes}>
                New recovery codes
              </Button>
            </div>
          )}
        </>
      )}
      {confirmation.dialog}
    </SecurityCard>
  );
}
