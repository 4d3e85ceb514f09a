import { type FormEvent, useState } from 'react';
import { limits } from '../../../contract/limits';
import type { MilestonePlan } from '../../../contract/milestones';
import { amountToCents } from '../../../contract/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TrashIcon } from '../../components/ui/icons';
import { TextField } from '../../components/ui/input';
import { serverReason } from '../../lib/api';
import { cn } from '../../lib/cn';
import { useProposePlan } from './milestones-api';
import {
  checkPlan,
  initialRows,
  maxRows,
  newRow,
  type PlanRow,
  type RowProblems,
  remainderOf,
  withEvenSplit,
} from './plan-form';

type PlanEditorProps = {
  dealId: number;
  budget: number;
  /** The open proposal, whose milestones the editor starts from. */
  openPlan: MilestonePlan | undefined;
  onDone: (proposed: boolean) => void;
};

/**
 * Proposing a milestone plan: rows of title, amount and optional due date (1–20), what is left of the
 * budget shown as the amounts are typed, Split evenly, and Propose plan, checked with the contract's
 * schema first; the server says whether the amounts add up to the budget.
 */
export function PlanEditor({ dealId, budget, openPlan, onDone }: PlanEditorProps) {
  const budgetCents = amountToCents(budget);
  const [rows, setRows] = useState<PlanRow[]>(() => initialRows(openPlan));
  const [problems, setProblems] = useState<{ plan: string | null; rows: RowProblems[] }>({
    plan: null,
    rows: [],
  });
  const propose = useProposePlan();
  const remainder = remainderOf(rows, budgetCents);

  const change = (key: number, field: keyof Omit<PlanRow, 'key'>, value: string) => {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
    setProblems((current) => ({
      ...current,
      rows: current.rows.map((problem, index) =>
        rows[index]?.key === key ? { ...problem, [field]: undefined } : problem,
      ),
    }));
  };
  const remove = (key: number) => {
    const index = rows.findIndex((row) => row.key === key);
    setRows((current) => current.filter((row) => row.key !== key));
    setProblems((current) => ({ ...current, rows: current.rows.filter((_, at) => at !== index) }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkPlan(rows);
    if (!checked.ok) {
      setProblems({ plan: checked.problem, rows: checked.rows });
      return;
    }
    setProblems({ plan: null, rows: [] });
    propose.mutate({ dealId, plan: checked.value }, { onSuccess: () => onDone(true) });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Propose a milestone plan"
      className="space-y-4 rounded-xl border border-indigo-100 bg-indigo-50/40 p-4"
    >
      <div>
        <h4 className="font-semibold text-slate-900">Propose a milestone plan</h4>
        <p className="text-sm text-slate-600">
          Divide the budget into the stages the deal is paid in. The plan replaces the single milestone once
          all three of you accept it.
        </p>
      </div>
      {propose.isError && (
        <Alert variant="error" detail={serverReason(propose.error)}>
          Failed to propose the plan
        </Alert>
      )}
      {problems.plan && <Alert variant="error">{problems.plan}</Alert>}
      <ol className="space-y-3">
        {rows.map((row, index) => (
          <li key={row.key}>
            <PlanRowFields
              row={row}
              position={index + 1}
              problems={problems.rows[index] ?? {}}
              removable={rows.length > 1}
              onChange={(field, value) => change(row.key, field, value)}
              onRemove={() => remove(row.key)}
            />
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={rows.length >= maxRows}
          onClick={() => setRows((current) => [...current, newRow()])}
        >
          Add milestone
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => setRows((current) => withEvenSplit(current, budgetCents))}
        >
          Split evenly
        </Button>
        <p
          aria-live="polite"
          className={cn(
            'text-sm font-medium sm:ml-auto',
            remainder.tone === 'over'
              ? 'text-rose-700'
              : remainder.tone === 'exact'
                ? 'text-emerald-700'
                : 'text-slate-700',
          )}
        >
          {remainder.text}
        </p>
      </div>
      {rows.length >= maxRows && (
        <p className="text-xs text-slate-500">A plan has at most {maxRows} milestones.</p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button size="sm" variant="outline" onClick={() => onDone(false)} disabled={propose.isPending}>
          Cancel
        </Button>
        <Button size="sm" type="submit" loading={propose.isPending}>
          {propose.isPending ? 'Proposing...' : 'Propose plan'}
        </Button>
      </div>
    </form>
  );
}

type PlanRowFieldsProps = {
  row: PlanRow;
  position: number;
  problems: RowProblems;
  removable: boolean;
  onChange: (field: keyof Omit<PlanRow, 'key'>, value: string) => void;
  onRemove: () => void;
};

/** One milestone of the plan being written: a group named 'Milestone 2' with its three fields. */
function PlanRowFields({ row, position, problems, removable, onChange, onRemove }: PlanRowFieldsProps) {
  return (
    <fieldset className="relative rounded-lg border border-slate-200 bg-white p-3">
      {/* Floated, the legend sits inside the box; first in the fieldset, it names the group. */}
      <legend className="float-left py-2 text-sm font-semibold text-slate-900">Milestone {position}</legend>
      <Button
        size="icon"
        variant="ghost"
        aria-label={`Remove milestone ${position}`}
        disabled={!removable}
        onClick={onRemove}
        className="absolute top-1 right-1"
      >
        <TrashIcon size={16} />
      </Button>
      <div className="clear-left grid gap-3 pt-1 sm:grid-cols-[minmax(0,1fr)_9rem_10.5rem]">
        <TextField
          label="Title"
          name={`milestones.${position - 1}.title`}
          maxLength={limits.milestone.title.max}
          value={row.title}
          error={problems.title}
          onChange={(event) => onChange('title', event.target.value)}
          placeholder="e.g. Due diligence"
        />
        <TextField
          label="Amount ($)"
          name={`milestones.${position - 1}.amount`}
          inputMode="decimal"
          autoComplete="off"
          value={row.amount}
          error={problems.amount}
          onChange={(event) => onChange('amount', event.target.value)}
          placeholder="0.00"
        />
        <TextField
          label="Due date (optional)"
          name={`milestones.${position - 1}.dueDate`}
          type="date"
          value={row.dueDate}
          error={problems.dueDate}
          onChange={(event) => onChange('dueDate', event.target.value)}
        />
      </div>
    </fieldset>
  );
}
