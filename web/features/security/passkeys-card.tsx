import { type FormEvent, useState } from 'react';
import { limits } from '../../../contract/limits';
import { passkeyRegisterSchema } from '../../../contract/security';
import { Alert, NoticeAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ErrorRetry } from '../../components/ui/error-retry';
import { TextField } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { passkeysSupported } from '../../lib/passkeys';
import { PasskeyRow } from './passkey-row';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { SecurityCard } from './security-card';
import { addPasskeyProblem, usePasskeysCard } from './use-passkeys-card';

/** Passkeys: sign in with the phone's or computer's lock instead of a password, or as the second factor. */
export function PasskeysCard() {
  const card = usePasskeysCard();
  const list = card.passkeys;

  return (
    <SecurityCard
      title="Passkeys"
      description="Sign in with your fingerprint, face or screen lock instead of typing your password. A passkey also works as your second factor."
    >
      {card.notice && <NoticeAlert notice={card.notice} />}
      {card.recoveryCodes && (
        <RecoveryCodesPanel codes={card.recoveryCodes} onDone={card.recoveryCodesSaved} />
      )}
      {list.isPending ? (
        <LoadingState label="Loading your passkeys..." className="py-6" />
      ) : list.isError ? (
        <ErrorRetry detail={serverReason(list.error)} onRetry={list.refetch}>
          Your passkeys could not be loaded.
        </ErrorRetry>
      ) : list.data.length === 0 ? (
        <p className="text-sm text-slate-600">You have no passkeys yet.</p>
      ) : (
        <ul
          aria-label="Your passkeys"
          className="divide-y divide-slate-100 rounded-xl border border-slate-200"
        >
          {list.data.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} card={card} />
          ))}
        </ul>
      )}
      {!passkeysSupported() ? (
        <p className="text-sm text-slate-600">This browser cannot make passkeys here.</p>
      ) : card.adding ? (
        <AddPasskeyForm card={card} />
      ) : (
        <Button variant="outline" onClick={card.startAdding}>
          Add a passkey
        </Button>
      )}
    </SecurityCard>
  );
}

/** The name part of the request that adds a passkey (its other part is the browser's answer). */
const passkeyNameSchema = passkeyRegisterSchema.pick({ name: true });

function AddPasskeyForm({ card }: { card: ReturnType<typeof usePasskeysCard> }) {
  const [name, setName] = useState('');
  // What the contract's schema refused at the last submit.
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (card.add.isPending) return;
    // No name is no name (the call leaves it out), not an empty one.
    const checked = checkWith(passkeyNameSchema, { name: name.trim() ? name : undefined });
    setProblem(checked.ok ? null : checked.problem);
    if (checked.ok) card.addPasskey(name);
  };
  return (
    <form onSubmit={submit} className="space-y-4 rounded-xl border border-slate-200 p-4">
      {card.add.isError && (
        <Alert variant="error" detail={addPasskeyProblem(card.add.error)}>
          The passkey was not added.
        </Alert>
      )}
      <TextField
        label="Name (optional)"
        error={problem ?? undefined}
        hint="To tell your passkeys apart, e.g. “Work laptop”. Your browser then asks you to confirm."
        name="passkeyName"
        autoComplete="off"
        maxLength={limits.security.passkeyName.max}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={card.add.isPending}>
          {card.add.isPending ? 'Waiting for your passkey...' : 'Add passkey'}
        </Button>
        <Button variant="outline" onClick={card.stopAdding} disabled={card.add.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
