import type { EditDealRequest } from '../../../contract/deal-changes';
import type { Deal } from '../../../contract/deals';
import { amountToCents, typedAmountToCents } from '../../../contract/money';
import { typedAmount } from '../../lib/money';
import type { DealFieldValues } from './deal-fields';

type EditableDeal = Pick<Deal, 'title' | 'description' | 'budget' | 'timeline'>;

/** The Edit Deal form's first values: the deal as it is. */
export const dealFieldValuesOf = (deal: EditableDeal): DealFieldValues => ({
  title: deal.title,
  description: deal.description,
  budget: String(deal.budget),
  timeline: deal.timeline,
});

/**
 * What the creator typed differently from the deal, as PATCH /deals/{id} takes it (editDealSchema): only
 * the changed fields, nothing when nothing changed (which the schema then refuses in its own words). A
 * budget typed as the same amount ("5000.00" for 5000) is no change; one that is no amount is sent to
 * the schema as typed, to be refused.
 */
export function dealEditOf(deal: EditableDeal, values: DealFieldValues): EditDealRequest {
  const edit: EditDealRequest = {};
  if (values.title !== deal.title) edit.title = values.title;
  if (values.description !== deal.description) edit.description = values.description;
  const typedCents = typedAmountToCents(values.budget);
  if (typedCents === null || typedCents !== amountToCents(deal.budget))
    edit.budget = typedAmount(values.budget);
  if (values.timeline !== deal.timeline) edit.timeline = values.timeline;
  return edit;
}
