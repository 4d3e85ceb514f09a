import { type FormEvent, useId, useState } from 'react';
import { defaultRequestMessage, sendRequestSchema } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import type { User } from '../../../contract/users';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextareaField } from '../../components/ui/input';
import { errorMessage } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSendRequest } from './dealmaker-requests-api';

type SendRequestDialogProps = {
  dealId: number;
  /** The user to ask; the dialog is open while there is one. */
  receiver: User | null;
  onClose: () => void;
};

/** 'Send Request to {username}': the message (pre-filled) and Cancel / Confirm & Send. */
export function SendRequestDialog({ dealId, receiver, onClose }: SendRequestDialogProps) {
  const formId = useId();
  const send = useSendRequest({
    onSuccess: () => {
      notifySuccess('Request sent successfully!');
      onClose();
    },
    onError: (error) => notifyError(errorMessage(error, 'Failed to send request')),
  });

  return (
    <Dialog
      open={receiver !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={receiver ? `Send Request to ${receiver.username}` : 'Send Request'}
      description={receiver?.full_name || undefined}
      size="md"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={send.isPending}>
            Confirm &amp; Send
          </Button>
        </>
      }
    >
      {receiver && (
        <MessageForm
          id={formId}
          onSubmit={(message) => {
            // An empty message becomes the default one (the schema's transform, as on the server).
            const checked = checkWith(sendRequestSchema, {
              dealId,
              receiverUsername: receiver.username,
              message,
            });
            if (!checked.ok) return checked.problem;
            send.mutate(checked.value);
            return null;
          }}
        />
      )}
    </Dialog>
  );
}

/** The request's message; `onSubmit` sends it, or says why it cannot be sent. */
function MessageForm({ id, onSubmit }: { id: string; onSubmit: (message: string) => string | null }) {
  const [message, setMessage] = useState(defaultRequestMessage);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(onSubmit(message));
  };
  return (
    <form id={id} onSubmit={submit}>
      <TextareaField
        label="Message"
        hint={`${message.length}/${limits.requestMessage.max}`}
        error={problem ?? undefined}
        name="message"
        rows={5}
        maxLength={limits.requestMessage.max}
        value={message}
        onChange={(event) => setMessage(event.target.value)}
      />
    </form>
  );
}
