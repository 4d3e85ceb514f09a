import { useState } from 'react';
import { createDisputeSchema, type Dispute, resolveDisputeSchema } from '../../../contract/disputes';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { FormPanel } from '../../components/ui/form-panel';
import { TextareaField, TextField } from '../../components/ui/input';
import { checkWith } from '../../lib/form-check';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { useRaiseDispute, useResolveDispute } from './disputes-api';

type FormOutcome = {
  /** The form is over: true once the call succeeded. */
  onDone: (succeeded: boolean) => void;
  onFailed: (detail: string | undefined) => void;
};

const missingTitleOrDescription = 'Title and description are required';

/** A dealer raises a dispute: title and description, both required; the title may come prefilled. */
export function RaiseDisputeForm({
  dealId,
  initialTitle = '',
  onDone,
  onFailed,
}: FormOutcome & { dealId: number; initialTitle?: string }) {
  const [title, setTitle] = useState(initialTitle);
  const [description, setDescription] = useState('');
  const raise = useRaiseDispute();
  const { problem, submit } = useCheckedSubmit({
    // The spec's one message when either is missing (§ Validation); the schema's for the rest (lengths).
    check: () =>
      title.trim() && description.trim()
        ? checkWith(createDisputeSchema, { dealId, title, description })
        : { ok: false, problem: missingTitleOrDescription, problems: {} },
    send: raise.mutate,
    onDone,
    onFailed,
    failureLog: 'Raising a dispute failed',
  });

  return (
    <FormPanel
      label="Raise New Dispute"
      onSubmit={submit}
      onCancel={() => onDone(false)}
      busy={raise.isPending}
      submitLabel={raise.isPending ? 'Submitting...' : 'Submit Dispute'}
      submitVariant="danger"
      className="space-y-4 rounded-xl border border-rose-100 bg-rose-50/40 p-4"
    >
      {problem && <Alert variant="error">{problem}</Alert>}
      <TextField
        label="Title"
        name="title"
        maxLength={limits.dispute.title.max}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        placeholder="e.g. Delivery is two weeks late"
      />
      <TextareaField
        label="Description"
        name="description"
        rows={4}
        maxLength={limits.dispute.description.max}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        placeholder="What went wrong, and what would settle it?"
      />
    </FormPanel>
  );
}

/** The dealmaker settles an open dispute with a resolution (required). */
export function ResolveDisputeForm({ dispute, onDone, onFailed }: FormOutcome & { dispute: Dispute }) {
  const [resolution, setResolution] = useState('');
  const resolve = useResolveDispute();
  const { problem, clearProblem, submit } = useCheckedSubmit({
    check: () => {
      const checked = checkWith(resolveDisputeSchema, { resolution });
      return checked.ok ? { ok: true, value: { dispute, ...checked.value } } : checked;
    },
    send: resolve.mutate,
    onDone,
    onFailed,
    failureLog: 'Resolving a dispute failed',
  });

  return (
    <FormPanel
      label={`Resolve Dispute: ${dispute.title}`}
      compact
      onSubmit={submit}
      onCancel={() => onDone(false)}
      busy={resolve.isPending}
      submitLabel={resolve.isPending ? 'Resolving...' : 'Submit Resolution'}
      submitVariant="success"
      className="mt-3 space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
    >
      <ResolutionField
        value={resolution}
        onChange={(next) => {
          setResolution(next);
          clearProblem();
        }}
        error={problem}
        placeholder="How was this settled?"
      />
    </FormPanel>
  );
}

type ResolutionFieldProps = {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  placeholder: string;
};

/** A dispute's Resolution text, for the dealmaker's resolution and an operator's settlement. */
export function ResolutionField({ value, onChange, error, placeholder }: ResolutionFieldProps) {
  return (
    <TextareaField
      label="Resolution"
      error={error ?? undefined}
      name="resolution"
      rows={3}
      maxLength={limits.dispute.resolution.max}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder={placeholder}
    />
  );
}
