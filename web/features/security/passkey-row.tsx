import { type FormEvent, useState } from 'react';
import { limits } from '../../../contract/limits';
import { type Passkey, passkeyRenameSchema } from '../../../contract/security';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/input';
import { serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { formatDate, formatDateTime } from '../../lib/time';
import type { usePasskeysCard } from './use-passkeys-card';

type PasskeyRowProps = { passkey: Passkey; card: ReturnType<typeof usePasskeysCard> };

/** One passkey: its name, when it was added and last used; Rename in place, Remove after a question. */
export function PasskeyRow({ passkey, card }: PasskeyRowProps) {
  const confirmation = useConfirmation();
  if (card.renamingId === passkey.id) {
    return (
      <li className="p-4">
        <RenameForm passkey={passkey} card={card} />
      </li>
    );
  }
  const askToRemove = () =>
    confirmation.ask({
      title: 'Remove this passkey?',
      message: `“${passkey.name}” will no longer sign you in.`,
      confirmLabel: 'Remove passkey',
      busyLabel: 'Removing...',
      variant: 'danger',
      onConfirm: () => card.removePasskey(passkey.id, passkey.name),
    });

  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-0.5">
        <p className="flex flex-wrap items-center gap-2 font-medium break-words text-slate-900">
          {passkey.name}
          {passkey.backedUp && <Badge tone="blue">Synced</Badge>}
        </p>
        <p className="text-sm text-slate-600">
          Added {formatDate(passkey.createdAt)} ·{' '}
          {passkey.lastUsedAt ? `Last used ${formatDateTime(passkey.lastUsedAt)}` : 'Never used'}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="outline" size="sm" onClick={() => card.startRenaming(passkey.id)}>
          Rename<span className="sr-only"> {passkey.name}</span>
        </Button>
        <Button variant="outline" size="sm" onClick={askToRemove}>
          Remove<span className="sr-only"> {passkey.name}</span>
        </Button>
      </div>
      {confirmation.dialog}
    </li>
  );
}

function RenameForm({ passkey, card }: PasskeyRowProps) {
  const [name, setName] = useState(passkey.name);
  // What the contract's schema refused at the last submit.
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (card.rename.isPending) return;
    const checked = checkWith(passkeyRenameSchema, { name });
    setProblem(checked.ok ? null : checked.problem);
    if (checked.ok) card.renamePasskey(passkey.id, name);
  };
  return (
    <form onSubmit={submit} className="space-y-3">
      {card.rename.isError && (
        <Alert variant="error" detail={serverReason(card.rename.error)}>
          The passkey was not renamed.
        </Alert>
      )}
      <TextField
        label="Passkey name"
        error={problem ?? undefined}
        name="passkeyName"
        autoComplete="off"
        required
        maxLength={limits.security.passkeyName.max}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" size="sm" loading={card.rename.isPending}>
          {card.rename.isPending ? 'Saving...' : 'Save name'}
        </Button>
        <Button variant="outline" size="sm" onClick={card.stopRenaming} disabled={card.rename.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
