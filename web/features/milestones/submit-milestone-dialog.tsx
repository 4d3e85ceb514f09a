import { type FormEvent, useId, useState } from 'react';
import { limits } from '../../../contract/limits';
import { type Milestone, submitMilestoneSchema } from '../../../contract/milestones';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextareaField } from '../../components/ui/input';
import { checkWith } from '../../lib/form-check';
import { formatMoney } from '../../lib/money';
import { milestoneLabel } from './milestone-texts';

type SubmitMilestoneDialogProps = {
  milestone: Pick<Milestone, 'position' | 'title' | 'amount'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Sends it; the dialog stays busy until the answer is in, then closes (the row shows the answer). */
  onSubmit: (note: string | null) => Promise<void>;
};

/**
 * The dealmaker says a funded milestone is delivered, with an optional note to the dealers: they approve
 * it (both: the money is released) or raise a dispute; otherwise it is released by itself in time.
 */
export function SubmitMilestoneDialog({
  milestone,
  open,
  onOpenChange,
  onSubmit,
}: SubmitMilestoneDialogProps) {
  const formId = useId();
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = (next: boolean) => {
    if (busy) return;
    if (!next) {
      setNote('');
      setProblem(null);
    }
    onOpenChange(next);
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = checkWith(submitMilestoneSchema, { note });
    if (!checked.ok) {
      setProblem(checked.problem);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(checked.value.note);
    } finally {
      setBusy(false);
      setNote('');
      setProblem(null);
      onOpenChange(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Submit for approval?"
      description={`Tell the dealers ${milestoneLabel(milestone)} is delivered. Once both approve it, its ${formatMoney(
        milestone.amount,
      )} is released to you; unless a dispute is raised, it is also released to you by itself when its timer runs out.`}
      footer={
        <>
          <Button variant="outline" onClick={() => close(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {busy ? 'Submitting...' : 'Submit for approval'}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate aria-label="Submit for approval">
        <TextareaField
          label="Note to the dealers (optional)"
          name="note"
          rows={3}
          maxLength={limits.milestone.note.max}
          value={note}
          error={problem ?? undefined}
          onChange={(event) => {
            setNote(event.target.value);
            setProblem(null);
          }}
          placeholder="e.g. The drawings are in the shared folder."
        />
      </form>
    </Dialog>
  );
}
