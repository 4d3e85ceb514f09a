CREATE TABLE "bid_history" (
	"bid_id" integer PRIMARY KEY NOT NULL,
	"deal_id" integer NOT NULL,
	"bidder_id" integer NOT NULL,
	"price_cents" bigint NOT NULL,
	"proposal" text,
	"delivery_days" integer,
	"deal_title" text NOT NULL,
	"deal_budget_cents" bigint NOT NULL,
	"deal_stage" text NOT NULL,
	"outcome" text NOT NULL,
	"bid_created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bid_history_outcome" CHECK ("bid_history"."outcome" in ('won', 'lost', 'deal deleted'))
);
--> statement-breakpoint
CREATE TABLE "saved_search_matches" (
	"saved_search_id" integer NOT NULL,
	"deal_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "saved_search_matches_saved_search_id_deal_id_pk" PRIMARY KEY("saved_search_id","deal_id")
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"query" jsonb NOT NULL,
	"alert" boolean NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_mailed_at" timestamp with time zone,
	"mail_due_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "proposal" text;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "delivery_days" integer;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "stage" text GENERATED ALWAYS AS (case when is_completed then 'completed' when dealmaker_id is not null then 'in_progress' when counterpart_id is not null then 'choosing' else 'open' end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, description), 'B')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "repeats" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "bid_history" ADD CONSTRAINT "bid_history_bidder_id_users_id_fk" FOREIGN KEY ("bidder_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bid_history_bidder_bid" ON "bid_history" USING btree ("bidder_id","bid_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "saved_searches_user_id" ON "saved_searches" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "saved_searches_alert" ON "saved_searches" USING btree ("id") WHERE "saved_searches"."alert";--> statement-breakpoint
CREATE INDEX "search_words_trgm" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "deals_stage_id" ON "deals" USING btree ("stage","id");--> statement-breakpoint
CREATE INDEX "deals_budget_id" ON "deals" USING btree ("budget_cents","id");--> statement-breakpoint
CREATE INDEX "deals_stage_budget_id" ON "deals" USING btree ("stage","budget_cents","id");--> statement-breakpoint
CREATE INDEX "deals_search_vector" ON "deals" USING gin ("search_vector") WITH (fastupdate=false);--> statement-breakpoint
-- The words of the deals' titles and descriptions, for a keyword search's closest words (decision 0029).
CREATE FUNCTION "deals_keep_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT word
    FROM regexp_split_to_table(lower(NEW.title || ' ' || NEW.description), '[^[:alnum:]]+') AS word
   WHERE length(word) BETWEEN 3 AND 40
   -- In one order: two deals adding the same new words wait for each other instead of deadlocking.
   ORDER BY word
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "deals_keep_search_words" AFTER INSERT OR UPDATE OF title, description ON "deals"
  FOR EACH ROW EXECUTE FUNCTION "deals_keep_search_words"();--> statement-breakpoint
INSERT INTO search_words (word)
SELECT DISTINCT word
  FROM deals, regexp_split_to_table(lower(title || ' ' || description), '[^[:alnum:]]+') AS word
 WHERE length(word) BETWEEN 3 AND 40
ON CONFLICT DO NOTHING;
