import type { DealCan } from './deals';

/**
 * The plain lists and values the API and the web app share, free of zod: the schemas that use them are
 * built when their module loads, and a page that needs only these must not download the schema library
 * for them (the Deals page's first paint).
 */

/**
 * Where a deal stands, as the status filter names it: 'open' (looking for a counterpart), 'choosing'
 * (both dealers, no dealmaker yet), 'in_progress' (it has its dealmaker), 'completed'.
 */
export const dealStages = ['open', 'choosing', 'in_progress', 'completed'] as const;
export type DealStage = (typeof dealStages)[number];

/** How the deals list can be ordered (`sort=`). */
export const dealSorts = ['newest', 'budget_desc', 'budget_asc', 'relevance'] as const;
export type DealSort = (typeof dealSorts)[number];

/** What became of a bid, for its bidder. */
export const bidOutcomes = ['pending', 'selected by one dealer', 'won', 'lost', 'deal deleted'] as const;
export type BidOutcome = (typeof bidOutcomes)[number];

/** Nothing allowed: what a client assumes of a deal it knows only from a broadcast, until it asks. */
export const nothingAllowed: DealCan = Object.freeze({});
