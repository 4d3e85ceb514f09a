import { limits } from '../../../contract/limits';
import { type MilestonePlan, type ProposePlanRequest, proposePlanSchema } from '../../../contract/milestones';
import {
  amountToCents,
  centsToDollars,
  formatCents,
  formatUsdCents,
  typedAmountToCents,
} from '../../../contract/money';
import { checkWith } from '../../lib/form-check';
import { typedAmount } from '../../lib/money';

/** The plan editor's rows as typed, and what its buttons do to them: pure, for the editor and its tests. */

/** One row of the editor: the milestone as typed (`key` keeps React's rows apart as rows come and go). */
export type PlanRow = { key: number; title: string; amount: string; dueDate: string };

export const maxRows = limits.milestone.perPlan;

let nextKey = 1;
export const newRow = (fields: Partial<Omit<PlanRow, 'key'>> = {}): PlanRow => ({
  key: nextKey++,
  title: '',
  amount: '',
  dueDate: '',
  ...fields,
});

/**
 * The rows the editor opens with: the open proposal's milestones (to answer it with changes), else one
 * empty row.
 */
export function initialRows(openPlan: Pick<MilestonePlan, 'milestones'> | undefined): PlanRow[] {
  if (!openPlan || openPlan.milestones.length === 0) return [newRow()];
  return openPlan.milestones.map((milestone) =>
    newRow({
      title: milestone.title,
      amount: formatCents(amountToCents(milestone.amount)),
      dueDate: milestone.dueDate ? milestone.dueDate.slice(0, 10) : '',
    }),
  );
}

/**
 * The budget over `count` rows to the cent: each row gets the same whole cents, and the first rows one
 * cent more each until the odd cents are used up ($300.02 over 3: 100.01, 100.01, 100.00).
 */
export function splitEvenly(budgetCents: number, count: number): number[] {
  if (count <= 0) return [];
  const base = Math.floor(budgetCents / count);
  const odd = budgetCents - base * count;
  return Array.from({ length: count }, (_, index) => base + (index < odd ? 1 : 0));
}

/** The rows with the budget split evenly over them, as amounts to type ('100.01'); titles and dates stay. */
export const withEvenSplit = (rows: PlanRow[], budgetCents: number): PlanRow[] => {
  const amounts = splitEvenly(budgetCents, rows.length);
  return rows.map((row, index) => ({ ...row, amount: formatCents(amounts[index]!) }));
};

/** The amounts typed so far in cents; a row whose amount is no amount (yet) counts as nothing. */
export const typedTotalCents = (rows: ReadonlyArray<Pick<PlanRow, 'amount'>>) =>
  rows.reduce((sum, row) => sum + (typedAmountToCents(row.amount) ?? 0), 0);

/** What is left of the budget, live: '$120.00 left to assign', '$5.00 over the budget', or that it adds up. */
export function remainderOf(
  rows: ReadonlyArray<Pick<PlanRow, 'amount'>>,
  budgetCents: number,
): { text: string; tone: 'left' | 'over' | 'exact' } {
  const difference = budgetCents - typedTotalCents(rows);
  if (difference > 0) return { text: `${formatUsdCents(difference)} left to assign`, tone: 'left' };
  if (difference < 0) return { text: `${formatUsdCents(-difference)} over the budget`, tone: 'over' };
  return { text: `Adds up to the budget of ${formatUsdCents(budgetCents)}`, tone: 'exact' };
}

type RowField = 'title' | 'amount' | 'dueDate';
export type RowProblems = Partial<Record<RowField, string>>;

/** One milestone of the request, as the contract's schema reads it. */
const milestoneSchema = proposePlanSchema.shape.milestones.element;

const requestRow = (row: PlanRow) => ({
  title: row.title,
  amount: typedAmount(row.amount),
  dueDate: row.dueDate || null,
});

/**
 * The rows checked with the contract's schema of POST /deals/{id}/milestone-plans (checkWith): the
 * request to send, or what it refuses, per row and field, and for the plan (how many rows). Whether the
 * amounts add up to the budget the server says (the remainder shows it meanwhile).
 */
export function checkPlan(
  rows: PlanRow[],
): { ok: true; value: ProposePlanRequest } | { ok: false; problem: string | null; rows: RowProblems[] } {
  const rowChecks = rows.map((row) => checkWith(milestoneSchema, requestRow(row)));
  const plan = checkWith(proposePlanSchema, { milestones: rows.map(requestRow) });
  if (plan.ok && rowChecks.every((check) => check.ok)) {
    return {
      ok: true,
      value: {
        milestones: plan.value.milestones.map((milestone) => ({
          title: milestone.title,
          amount: centsToDollars(milestone.amount),
          ...(milestone.dueDate ? { dueDate: milestone.dueDate } : {}),
        })),
      },
    };
  }
  const problems = rowChecks.map((check) => (check.ok ? {} : (check.problems as RowProblems)));
  const rowsFine = problems.every((problem) => Object.keys(problem).length === 0);
  return { ok: false, problem: rowsFine && !plan.ok ? plan.problem : null, rows: problems };
}
