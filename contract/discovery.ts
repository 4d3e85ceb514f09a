import { z } from 'zod';
import { dealSchema } from './deals';
import { invalidCharacter, pageQuerySchema, withoutNul } from './fields';
import { limits } from './limits';
import { dollarsToCents, formatUsdCents } from './money';
import { bidOutcomes, type DealStage, dealSorts, dealStages } from './vocabulary';

/**
 * Finding deals: the deals list's filters, sorts and ranked search (GET /api/deals/all with query
 * parameters), its count, saved searches with alerts, and a bidder's own bids.
 */

const stageList = `'${dealStages.join("', '")}'`;
const sortList = `'${dealSorts.join("', '")}'`;

/** Keywords: words, "quoted phrases", -excluded words (websearch syntax). */
const keywords = z
  .string()
  .trim()
  .max(limits.searchQuery.max, `q must be at most ${limits.searchQuery.max} characters`)
  .refine(withoutNul, invalidCharacter('q'))
  .optional()
  .transform((value) => value || undefined);

/** `status=open&status=choosing` or `status=open,choosing`: one list, each stage once. */
const stagesParam = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return undefined;
    const names = (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(','))
      .map((part) => part.trim())
      .filter(Boolean);
    const unknown = names.find((name) => !(dealStages as readonly string[]).includes(name));
    if (unknown !== undefined) {
      ctx.addIssue({ code: 'custom', message: `status must be one of ${stageList}` });
      return z.NEVER;
    }
    return names.length > 0 ? ([...new Set(names)] as DealStage[]) : undefined;
  });

/** A budget bound in dollars ("1000", "1000.50" or a JSON number), checked into cents. */
const budgetParam = (name: string) =>
  z
    .union([z.number(), z.string()], { error: `${name} must be an amount in dollars` })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const cents = dollarsToCents(value);
      const { min, max } = limits.deal.budgetCents;
      if (cents === null || cents < min || cents > max) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be an amount between ${formatUsdCents(min)} and ${formatUsdCents(max)}, with at most 2 decimals`,
        });
        return z.NEVER;
      }
      return cents;
    });

/** The filters a list query and a saved search share; amounts in cents once checked. */
const filterFields = {
  q: keywords,
  status: stagesParam,
  minBudget: budgetParam('minBudget'),
  maxBudget: budgetParam('maxBudget'),
};

type Filters = { q?: string; status?: DealStage[]; minBudget?: number; maxBudget?: number };

const budgetRangeHolds = (filters: Filters) =>
  filters.minBudget === undefined ||
  filters.maxBudget === undefined ||
  filters.minBudget <= filters.maxBudget;
const budgetRangeMessage = { message: 'minBudget must not be more than maxBudget', path: ['minBudget'] };

/** GET /api/deals/count: how many deals the filters find. */
export const dealFilterQuerySchema = z.object(filterFields).refine(budgetRangeHolds, budgetRangeMessage);
export type DealFilters = z.output<typeof dealFilterQuerySchema>;

/**
 * GET /api/deals/all's query. Without parameters the answer is the spec's list (newest first, paged
 * with `before`). `sort` defaults to 'relevance' with keywords, else 'newest'; `before` pages the
 * newest-first list, `offset` (at most 1,000) any other order.
 */
export const dealListQuerySchema = z
  .object({
    ...filterFields,
    sort: z.enum(dealSorts, { error: `sort must be one of ${sortList}` }).optional(),
    ...pageQuerySchema.shape,
    offset: z.coerce
      .number({ error: 'offset must be a number' })
      .int('offset must be a whole number')
      .min(0, 'offset must not be negative')
      .max(limits.discovery.maxOffset, `offset must be at most ${limits.discovery.maxOffset}`)
      .optional(),
  })
  .refine(budgetRangeHolds, budgetRangeMessage)
  .refine((query) => query.sort !== 'relevance' || query.q !== undefined, {
    message: "sort 'relevance' needs keywords (q)",
    path: ['sort'],
  })
  .refine(
    (query) => query.before === undefined || (query.sort ?? (query.q ? 'relevance' : 'newest')) === 'newest',
    { message: 'before pages the newest-first list; page other orders with offset', path: ['before'] },
  )
  .refine((query) => query.before === undefined || query.offset === undefined, {
    message: 'Give before or offset, not both',
    path: ['offset'],
  });
export type DealListQuery = z.output<typeof dealListQuerySchema>;

/**
 * Part of a search result's snippet: plain text, and whether it is a matched word. The web marks the
 * matches itself (never HTML from the server).
 */
export const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

/** A deal of a keyword search: with `snippet`, a short excerpt of its description with the matched words. */
export const dealListItemSchema = dealSchema.extend({ snippet: z.array(snippetPartSchema).optional() });
export type DealListItem = z.infer<typeof dealListItemSchema>;
export const dealListItemsSchema = z.array(dealListItemSchema);

/** GET /api/deals/count: exact up to 1,000; `more` says there are more than `count`. */
export const dealCountSchema = z.object({ count: z.number().int(), more: z.boolean() });
export type DealCount = z.infer<typeof dealCountSchema>;

/** A saved search's query: the list's filters (amounts in dollars on the wire). */
export const savedSearchQuerySchema = z
  .object(filterFields, { error: 'query must be an object' })
  .refine(budgetRangeHolds, budgetRangeMessage);

export const createSavedSearchSchema = z.object({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(
      limits.discovery.savedSearchName.max,
      `name must be at most ${limits.discovery.savedSearchName.max} characters`,
    )
    .refine(withoutNul, invalidCharacter('name')),
  query: savedSearchQuerySchema,
  alert: z.boolean({ error: 'alert must be true or false' }),
});
export type NewSavedSearch = z.output<typeof createSavedSearchSchema>;

export const updateSavedSearchSchema = z.object({
  alert: z.boolean({ error: 'alert must be true or false' }),
});

export const savedSearchSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  query: z.object({
    q: z.string().optional(),
    status: z.array(z.enum(dealStages)).optional(),
    minBudget: z.number().optional(),
    maxBudget: z.number().optional(),
  }),
  alert: z.boolean(),
  /** Deals it found since its owner last opened it (POST .../seen). */
  newMatches: z.number().int(),
  createdAt: z.string(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;

/** GET /api/bids/mine: one of the user's bids with its deal, newest first. */
export const myBidSchema = z.object({
  id: z.number().int(),
  price: z.number(),
  proposal: z.string().nullable(),
  deliveryDays: z.number().int().nullable(),
  createdAt: z.string(),
  deal: z.object({
    id: z.number().int(),
    title: z.string(),
    /** Its stage now, or when it was deleted. */
    status: z.enum(dealStages),
    budget: z.number(),
  }),
  selectedByCreator: z.boolean(),
  selectedByCounterpart: z.boolean(),
  outcome: z.enum(bidOutcomes),
});
export type MyBid = z.infer<typeof myBidSchema>;
export const myBidsQuerySchema = pageQuerySchema;
