CREATE TABLE "milestone_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"deal_id" integer NOT NULL,
	"proposed_by_id" integer NOT NULL,
	"milestones" jsonb NOT NULL,
	"accepted_by_ids" integer[] NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "milestone_plans_status" CHECK ("milestone_plans"."status" in ('open', 'accepted', 'superseded', 'withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "milestones" (
	"id" serial PRIMARY KEY NOT NULL,
	"deal_id" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"creator_share_cents" bigint NOT NULL,
	"counterpart_share_cents" bigint NOT NULL,
	"creator_paid" boolean DEFAULT false NOT NULL,
	"counterpart_paid" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"due_date" timestamp with time zone,
	"lone_half_expires_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"note" text,
	"creator_approved" boolean DEFAULT false NOT NULL,
	"counterpart_approved" boolean DEFAULT false NOT NULL,
	"auto_release_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "milestones_amount_split" CHECK ("milestones"."creator_share_cents" + "milestones"."counterpart_share_cents" = "milestones"."amount_cents" and "milestones"."amount_cents" > 0),
	CONSTRAINT "milestones_status" CHECK ("milestones"."status" in ('open', 'funded', 'submitted', 'released', 'refunded', 'settled'))
);
--> statement-breakpoint
ALTER TABLE "escrows" ADD COLUMN "held_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "escrows" ADD COLUMN "held_creator_share_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "escrows" ADD COLUMN "released_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD COLUMN "milestone_id" integer;--> statement-breakpoint
ALTER TABLE "milestone_plans" ADD CONSTRAINT "milestone_plans_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestone_plans" ADD CONSTRAINT "milestone_plans_proposed_by_id_users_id_fk" FOREIGN KEY ("proposed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestones" ADD CONSTRAINT "milestones_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "milestone_plans_deal_id" ON "milestone_plans" USING btree ("deal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_deal_position_key" ON "milestones" USING btree ("deal_id","position");--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Every escrow so far becomes one milestone holding the whole budget: the spec's escrow, as it stands.
INSERT INTO "milestones" ("deal_id", "position", "title", "amount_cents", "creator_share_cents", "counterpart_share_cents",
                          "creator_paid", "counterpart_paid", "status", "lone_half_expires_at", "released_at", "created_at", "updated_at")
SELECT "deal_id", 1, 'Whole deal', "amount_cents", "creator_share_cents", "counterpart_share_cents",
       "creator_paid", "counterpart_paid",
       CASE "status" WHEN 'pending' THEN 'open' WHEN 'locked' THEN 'funded' WHEN 'completed' THEN 'released' ELSE 'settled' END,
       "lone_half_expires_at", "released_at", "created_at", "updated_at"
  FROM "escrows";--> statement-breakpoint
UPDATE "escrows"
   SET "held_cents" = CASE WHEN "status" = 'locked' THEN "amount_cents" ELSE 0 END,
       "held_creator_share_cents" = CASE WHEN "status" = 'locked' THEN "creator_share_cents" ELSE 0 END,
       "released_cents" = CASE WHEN "status" = 'completed' THEN "amount_cents" ELSE 0 END;--> statement-breakpoint
-- Each escrow movement was for that milestone, but a settlement's split, written in the settlement's own
-- transaction (the same now()), which is for the deal's held money as a whole.
UPDATE "ledger_transfers" t
   SET "milestone_id" = m."id"
  FROM "milestones" m
 WHERE m."deal_id" = t."deal_id"
   AND t."kind" IN ('escrow_lock', 'escrow_refund', 'escrow_release')
   AND NOT EXISTS (SELECT 1 FROM "settlements" s WHERE s."deal_id" = t."deal_id" AND s."created_at" = t."created_at");--> statement-breakpoint
CREATE TRIGGER "audit_milestones" AFTER INSERT OR UPDATE OR DELETE ON "milestones"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_milestone_plans" AFTER INSERT OR UPDATE OR DELETE ON "milestone_plans"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_deal_join_requests" AFTER INSERT OR UPDATE OR DELETE ON "deal_join_requests"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();
