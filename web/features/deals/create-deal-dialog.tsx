import { type FormEvent, useId, useState } from 'react';
import { createDealSchema } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import { centsToDollars } from '../../../contract/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextareaField, TextField } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { typedAmount } from '../../lib/money';
import { dealTexts, type ShowFlash, success } from './deal-flash';
import { useCreateDeal } from './deals-api';

type CreateDealDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onFlash: ShowFlash;
};

/** The Create Deal modal: title, description, budget and timeline, all required. */
export function CreateDealDialog({ open, onOpenChange, onFlash }: CreateDealDialogProps) {
  const formId = useId();
  const create = useCreateDeal({
    onSuccess: () => {
      onOpenChange(false);
      onFlash(success(dealTexts.created));
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
      title="Create Deal"
      description="Describe what you need; dealers and dealmakers will find it on the Deals page."
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create Deal'}
          </Button>
        </>
      }
    >
      <CreateDealForm id={formId} create={create} />
    </Dialog>
  );
}

type Values = { title: string; description: string; budget: string; timeline: string };
const empty: Values = { title: '', description: '', budget: '', timeline: '' };

function CreateDealForm({ id, create }: { id: string; create: ReturnType<typeof useCreateDeal> }) {
  const [values, setValues] = useState<Values>(empty);
  // What the contract's schema refused at the last submit, by field.
  const [problems, setProblems] = useState<Partial<Record<keyof Values, string>>>({});
  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWith(createDealSchema, { ...values, budget: typedAmount(values.budget) });
    setProblems(checked.ok ? {} : checked.problems);
    if (!checked.ok) return;
    create.mutate({ ...checked.value, budget: centsToDollars(checked.value.budget) });
  };

  const serverErrors = create.error instanceof ApiError ? (create.error.fieldErrors ?? {}) : {};
  const fieldErrors = { ...serverErrors, ...problems };

  return (
    <form id={id} onSubmit={submit} className="space-y-5">
      {create.isError && (
        <Alert variant="error" detail={serverReason(create.error)}>
          {dealTexts.createFailed}
        </Alert>
      )}
      <TextField
        label="Title"
        error={fieldErrors.title}
        name="title"
        required
        maxLength={limits.deal.title.max}
        value={values.title}
        onChange={set('title')}
        placeholder="e.g. Distribution partner for organic coffee"
      />
      <TextareaField
        label="Description"
        error={fieldErrors.description}
        name="description"
        required
        rows={4}
        maxLength={limits.deal.description.max}
        value={values.description}
        onChange={set('description')}
        placeholder="What is the deal about, and what are you looking for?"
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Budget ($)"
          error={fieldErrors.budget}
          name="budget"
          type="number"
          inputMode="decimal"
          required
          min={0.01}
          step={0.01}
          value={values.budget}
          onChange={set('budget')}
          placeholder="5000.00"
        />
        <TextField
          label="Timeline"
          error={fieldErrors.timeline}
          name="timeline"
          required
          maxLength={limits.deal.timeline.max}
          value={values.timeline}
          onChange={set('timeline')}
          placeholder="e.g. 3 months"
        />
      </div>
    </form>
  );
}
