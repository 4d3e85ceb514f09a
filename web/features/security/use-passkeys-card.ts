import { useState } from 'react';
import type { Notice } from '../../components/ui/alert';
import { serverReason } from '../../lib/api';
import { passkeyPromptProblem } from '../../lib/passkeys';
import { useTimedMessage } from '../../lib/use-timed-message';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from './security-api';

/** Why adding a passkey failed: the browser's prompt, else the server's reason. */
export const addPasskeyProblem = (error: unknown) => passkeyPromptProblem(error) ?? serverReason(error);

/**
 * The passkeys card: the list, adding one (the browser's prompt; the first factor of an account comes
 * with recovery codes, shown once), renaming one in place, and removing one.
 */
export function usePasskeysCard() {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [adding, setAdding] = useState(false);
  const [renamingId, setRenamingId] = useState<number | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [notice, showNotice] = useTimedMessage<Notice>(6000);

  const startAdding = () => {
    showNotice(null);
    add.reset();
    setAdding(true);
  };
  const addPasskey = (name: string) =>
    add.mutate(name, {
      onSuccess: (answer) => {
        setAdding(false);
        showNotice({ tone: 'success', text: `Passkey “${answer.passkey.name}” added.` });
        if (answer.recoveryCodes) setRecoveryCodes(answer.recoveryCodes);
      },
    });

  const startRenaming = (id: number) => {
    showNotice(null);
    rename.reset();
    setRenamingId(id);
  };
  const renamePasskey = (id: number, name: string) =>
    rename.mutate({ id, name }, { onSuccess: () => setRenamingId(null) });

  const removePasskey = (id: number, name: string) =>
    remove.mutateAsync(id).then(
      () => showNotice({ tone: 'success', text: `Passkey “${name}” removed.` }),
      (error: unknown) =>
        showNotice({ tone: 'error', text: 'The passkey was not removed.', detail: serverReason(error) }),
    );

  return {
    passkeys,
    notice,
    adding,
    startAdding,
    stopAdding: () => setAdding(false),
    addPasskey,
    add,
    renamingId,
    startRenaming,
    stopRenaming: () => setRenamingId(null),
    renamePasskey,
    rename,
    removePasskey,
    recoveryCodes,
    recoveryCodesSaved: () => setRecoveryCodes(null),
  };
}
