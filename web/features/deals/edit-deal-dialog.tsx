import { type FormEvent, useId, useState } from 'react';
import { editDealSchema } from '../../../contract/deal-changes';
import type { Deal } from '../../../contract/deals';
import { centsToDollars } from '../../../contract/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { dealEditOf, dealFieldValuesOf } from './deal-edit';
import { DealFields, type DealFieldValues } from './deal-fields';
import { dealTexts, type ShowFlash, success } from './deal-flash';
import { useEditDeal } from './deals-api';

type EditDealDialogProps = {
  /** The deal to edit; the dialog is open while there is one. */
  deal: Deal | null;
  onClose: () => void;
  onFlash: ShowFlash;
};

/**
 * The Edit Deal modal (the creator's, while the deal has no dealmaker): the deal's fields as they are,
 * and only the changed ones sent.
 */
export function EditDealDialog({ deal, onClose, onFlash }: EditDealDialogProps) {
  const formId = useId();
  const edit = useEditDeal({
    onSuccess: () => {
      onClose();
      onFlash(success(dealTexts.edited));
    },
  });

  return (
    <Dialog
      open={deal !== null}
      onOpenChange={(open) => {
        if (open) return;
        edit.reset();
        onClose();
      }}
      title="Edit Deal"
      description="Correct your deal while it has no dealmaker. Its counterpart is told what changed, and its bidders when the budget does."
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={edit.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={edit.isPending}>
            {edit.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </>
      }
    >
      {deal && <EditDealForm key={deal.id} id={formId} deal={deal} edit={edit} />}
    </Dialog>
  );
}

function EditDealForm({ id, deal, edit }: { id: string; deal: Deal; edit: ReturnType<typeof useEditDeal> }) {
  const [values, setValues] = useState<DealFieldValues>(() => dealFieldValuesOf(deal));
  // What the contract's schema refused at the last submit, by field ('' for the whole edit: nothing changed).
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWith(editDealSchema, dealEditOf(deal, values));
    setProblems(checked.ok ? {} : checked.problems);
    if (!checked.ok) return;
    const { budget, ...fields } = checked.value;
    edit.mutate({
      dealId: deal.id,
      edit: budget === undefined ? fields : { ...fields, budget: centsToDollars(budget) },
    });
  };

  const serverErrors = edit.error instanceof ApiError ? (edit.error.fieldErrors ?? {}) : {};
  const fieldErrors = { ...serverErrors, ...problems };

  return (
    <form id={id} onSubmit={submit} className="space-y-5">
      {edit.isError && (
        <Alert variant="error" detail={serverReason(edit.error)}>
          {dealTexts.editFailed}
        </Alert>
      )}
      {problems[''] && <Alert variant="info">{problems['']}</Alert>}
      <DealFields
        values={values}
        problems={fieldErrors}
        onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
      />
    </form>
  );
}
