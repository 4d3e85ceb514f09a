import { type FormEvent, useId, useState } from 'react';
import { askToJoinSchema } from '../../../contract/deal-changes';
import type { Deal } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextareaField } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { dealTexts, type ShowFlash, success } from './deal-flash';
import { JoinRequestStatus } from './join-request-status';
import { latestJoinRequest, useAskToJoin, useJoinRequests } from './join-requests-api';

type AskToJoinDialogProps = {
  /** The deal to ask to join; the dialog is open while there is one. */
  deal: Deal | null;
  onClose: () => void;
  onFlash: ShowFlash;
};

/**
 * Ask to Join (a deal whose creator accepts who joins it): an optional message to the creator. A viewer
 * whose request still waits is told so instead.
 */
export function AskToJoinDialog({ deal, onClose, onFlash }: AskToJoinDialogProps) {
  const formId = useId();
  const ask = useAskToJoin({
    onSuccess: () => {
      onClose();
      onFlash(success(dealTexts.askedToJoin));
    },
  });
  const requests = useJoinRequests(deal?.id ?? 0, deal !== null);
  const latest = latestJoinRequest(requests.data);
  // A request sent here closes the dialog: one waiting while it is open was sent before.
  const waiting = latest?.status === 'pending';

  return (
    <Dialog
      open={deal !== null}
      onOpenChange={(open) => {
        if (open) return;
        ask.reset();
        onClose();
      }}
      title="Ask to Join"
      description={
        deal ? `The creator of '${deal.title}' accepts who joins it as the second dealer.` : undefined
      }
      size="md"
      footer={
        waiting ? (
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        ) : (
          <>
            <Button variant="outline" onClick={onClose} disabled={ask.isPending}>
              Cancel
            </Button>
            <Button type="submit" form={formId} loading={ask.isPending}>
              {ask.isPending ? 'Sending...' : 'Send Request'}
            </Button>
          </>
        )
      }
    >
      {deal &&
        (waiting ? (
          <JoinRequestStatus request={latest} />
        ) : (
          <AskToJoinForm key={deal.id} id={formId} dealId={deal.id} ask={ask} />
        ))}
    </Dialog>
  );
}

function AskToJoinForm({
  id,
  dealId,
  ask,
}: {
  id: string;
  dealId: number;
  ask: ReturnType<typeof useAskToJoin>;
}) {
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWith(askToJoinSchema, { message });
    setProblem(checked.ok ? null : checked.problem);
    if (!checked.ok) return;
    ask.mutate({ dealId, message: checked.value.message });
  };

  const serverError = ask.error instanceof ApiError ? ask.error.fieldErrors?.message : undefined;

  return (
    <form id={id} onSubmit={submit} className="space-y-4">
      {ask.isError && (
        <Alert variant="error" detail={serverReason(ask.error)}>
          {dealTexts.askToJoinFailed}
        </Alert>
      )}
      <TextareaField
        label="Message (optional)"
        hint={`Why you are the right counterpart. ${message.length}/${limits.requestMessage.max}`}
        error={problem ?? serverError}
        name="message"
        rows={4}
        maxLength={limits.requestMessage.max}
        value={message}
        onChange={(event) => setMessage(event.target.value)}
      />
    </form>
  );
}
