import { useState } from 'react';
import type { Privacy, PrivacyField, Visibility } from '../../../contract/users';
import type { Notice } from '../../components/ui/alert';
import { serverReason } from '../../lib/api';
import { useTimedMessage } from '../../lib/use-timed-message';
import { useSavePrivacy } from './profile-api';

/** The privacy form's choices, saved together, and the result of the last save. */
export function usePrivacyForm(initial: Privacy) {
  const save = useSavePrivacy();
  const [choices, setChoices] = useState<Privacy>(initial);
  const [notice, showNotice] = useTimedMessage<Notice>(5000);

  const choose = (field: PrivacyField, visibility: Visibility) => {
    showNotice(null);
    setChoices((current) => ({ ...current, [field]: visibility }));
  };

  const submit = () => {
    showNotice(null);
    save.mutate(choices, {
      onSuccess: (saved) => {
        setChoices(saved);
        showNotice({ tone: 'success', text: 'Privacy settings saved.' });
      },
      onError: (error) =>
        showNotice({ tone: 'error', text: 'Failed to save privacy settings.', detail: serverReason(error) }),
    });
  };

  return { choices, choose, submit, saving: save.isPending, notice };
}
