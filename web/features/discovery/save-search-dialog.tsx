import { type FormEvent, useId, useState } from 'react';
import { createSavedSearchSchema, type SavedSearch } from '../../../contract/discovery';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Checkbox, TextField } from '../../components/ui/input';
import { ApiError, serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { type DealFilters, describeFilters, filtersToSavedQuery } from '../deals';
import { useCreateSavedSearch } from './saved-searches-api';

export type SaveSearchDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The search to save (its order is not saved). */
  filters: DealFilters;
  onSaved?: (search: SavedSearch) => void;
};

/** The name a saved search is offered: its keywords, else its filters in words. */
export const defaultSearchName = (filters: DealFilters) =>
  (filters.q || describeFilters(filters)).slice(0, limits.discovery.savedSearchName.max);

/** "Save this search": a name (the keywords to start with) and whether new matches are notified. */
export function SaveSearchDialog({ open, onOpenChange, filters, onSaved }: SaveSearchDialogProps) {
  const formId = useId();
  const create = useCreateSavedSearch({
    onSuccess: (saved) => {
      onOpenChange(false);
      onSaved?.(saved);
    },
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
      title="Save this search"
      description={describeFilters(filters)}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={create.isPending}>
            {create.isPending ? 'Saving...' : 'Save search'}
          </Button>
        </>
      }
    >
      <SaveSearchForm
        id={formId}
        initialName={defaultSearchName(filters)}
        error={create.error}
        onSubmit={(name, alert) => {
          const input = { name, query: filtersToSavedQuery(filters), alert };
          const checked = checkWith(createSavedSearchSchema, input);
          if (!checked.ok) return checked.problems.name ?? checked.problem;
          create.mutate({ ...input, name: name.trim() });
          return null;
        }}
      />
    </Dialog>
  );
}

function SaveSearchForm({
  id,
  initialName,
  error,
  onSubmit,
}: {
  id: string;
  initialName: string;
  error: Error | null;
  onSubmit: (name: string, alert: boolean) => string | null;
}) {
  const [name, setName] = useState(initialName);
  const [alert, setAlert] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(onSubmit(name, alert));
  };
  const full = error instanceof ApiError && error.status === 409;
  return (
    <form id={id} onSubmit={submit} className="space-y-4">
      {error && (
        <Alert variant="error" detail={full ? undefined : serverReason(error)}>
          {full
            ? (serverReason(error) ?? 'You have saved as many searches as you may.')
            : 'Failed to save the search.'}
        </Alert>
      )}
      <TextField
        label="Name"
        name="name"
        required
        maxLength={limits.discovery.savedSearchName.max}
        autoFocus
        error={problem ?? undefined}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <Checkbox
        label="Alert me about new matches"
        name="alert"
        checked={alert}
        onChange={(event) => setAlert(event.target.checked)}
      />
    </form>
  );
}
