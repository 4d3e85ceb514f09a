CREATE TABLE "deal_join_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"deal_id" integer NOT NULL,
	"requester_id" integer NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_join_requests_status" CHECK ("deal_join_requests"."status" in ('pending', 'accepted', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "join_policy" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "deal_join_requests" ADD CONSTRAINT "deal_join_requests_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_join_requests" ADD CONSTRAINT "deal_join_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deal_join_requests_pending_key" ON "deal_join_requests" USING btree ("deal_id","requester_id") WHERE "deal_join_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "deal_join_requests_requester_id" ON "deal_join_requests" USING btree ("requester_id");--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_join_policy" CHECK ("deals"."join_policy" in ('open', 'approval'));