-- btree_gin gives GIN indexes plain columns (the stage) beside the words (docs/decisions/0029-deal-search-and-filters.md).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "deals_search_vector";--> statement-breakpoint
CREATE INDEX "deals_search_vector_stage" ON "deals" USING gin ("search_vector","stage") WITH (fastupdate=false);--> statement-breakpoint
-- Word frequencies for up to 10,000 words (the default keeps 100 × 10 = 1,000 and samples 30,000 deals): a
-- word the planner does not know it takes as rare, and walked the whole table in creation order looking for
-- it, or it takes a rare word as common and sorts every match of it.
ALTER TABLE "deals" ALTER COLUMN "search_vector" SET STATISTICS 10000;--> statement-breakpoint
ANALYZE "deals";
