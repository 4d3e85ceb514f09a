import { type FormEvent, useId, useState } from 'react';
import { createDealSchema, type JoinPolicy } from '../../../contract/deals';
import { centsToDollars } from '../../../contract/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Radio } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { typedAmount } from '../../lib/money';
import { DealFields, type DealFieldValues } from './deal-fields';
import { dealTexts, type ShowFlash, success } from './deal-flash';
import { useCreateDeal } from './deals-api';

export type CreateDealDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onFlash: ShowFlash;
};

/** The Create Deal modal: title, description, budget and timeline, all required, and who can join. */
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

const empty: DealFieldValues = { title: '', description: '', budget: '', timeline: '' };

/** Who may become the deal's counterpart, in the creator's words. */
const joinPolicyChoices: Array<{ value: JoinPolicy; label: string; hint: string }> = [
  { value: 'open', label: 'Anyone can join', hint: 'The first dealer to join becomes your counterpart.' },
  {
    value: 'approval',
    label: 'I approve who joins',
    hint: 'Dealers ask to join, with a message; you accept one of them.',
  },
];

function CreateDealForm({ id, create }: { id: string; create: ReturnType<typeof useCreateDeal> }) {
  const [values, setValues] = useState<DealFieldValues>(empty);
  const [joinPolicy, setJoinPolicy] = useState<JoinPolicy>('open');
  // What the contract's schema refused at the last submit, by field.
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkWith(createDealSchema, {
      ...values,
      budget: typedAmount(values.budget),
      joinPolicy,
    });
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
      <DealFields
        values={values}
        problems={fieldErrors}
        onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
      />
      <fieldset className="space-y-2">
        <legend className="mb-1.5 text-sm font-medium text-slate-700">Who can join</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {joinPolicyChoices.map((choice) => (
            <Radio
              key={choice.value}
              name="joinPolicy"
              value={choice.value}
              label={choice.label}
              hint={choice.hint}
              checked={joinPolicy === choice.value}
              onChange={() => setJoinPolicy(choice.value)}
            />
          ))}
        </div>
      </fieldset>
    </form>
  );
}
