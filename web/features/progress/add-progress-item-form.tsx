import { useState } from 'react';
import { limits } from '../../../contract/limits';
import { createProgressSchema } from '../../../contract/progress';
import { FormPanel } from '../../components/ui/form-panel';
import { TextareaField, TextField } from '../../components/ui/input';
import { checkWith } from '../../lib/form-check';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { useCreateProgressItem } from './progress-api';

type AddProgressItemFormProps = {
  dealId: number;
  /** The form is over: true once the item was created. */
  onDone: (created: boolean) => void;
  onFailed: (detail: string | undefined) => void;
};

/** The dealmaker adds a progress step: a title (required) and a description. */
export function AddProgressItemForm({ dealId, onDone, onFailed }: AddProgressItemFormProps) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const create = useCreateProgressItem();
  const { problems, clearProblem, submit } = useCheckedSubmit({
    check: () => checkWith(createProgressSchema, { dealId, title, description }),
    send: create.mutate,
    onDone,
    onFailed,
    failureLog: 'Creating a progress item failed',
  });

  return (
    <FormPanel
      label="Add Progress Item"
      onSubmit={submit}
      onCancel={() => onDone(false)}
      busy={create.isPending}
      submitLabel={create.isPending ? 'Adding...' : 'Add Item'}
      className="space-y-4 rounded-xl border border-indigo-100 bg-indigo-50/40 p-4"
    >
      <TextField
        label="Title"
        error={problems.title}
        name="title"
        maxLength={limits.progress.title.max}
        value={title}
        onChange={(event) => {
          setTitle(event.target.value);
          clearProblem();
        }}
        placeholder="e.g. Draft the partnership agreement"
      />
      <TextareaField
        label="Description"
        hint="Optional."
        error={problems.description}
        name="description"
        rows={3}
        maxLength={limits.progress.description.max}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
    </FormPanel>
  );
}
