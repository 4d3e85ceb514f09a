DROP INDEX "deals_title_trgm";--> statement-breakpoint
DROP INDEX "deals_description_trgm";--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(title) || E'\x1f' || lower(description)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "deals_search_trgm" ON "deals" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);