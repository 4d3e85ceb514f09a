CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"actor_username" text,
	"action" text NOT NULL,
	"deal_id" integer,
	"subject" text,
	"before" jsonb,
	"after" jsonb,
	"address" text
);
--> statement-breakpoint
CREATE TABLE "settlement_acceptances" (
	"proposal_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_acceptances_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "settlement_proposals" (
	"id" serial PRIMARY KEY NOT NULL,
	"dispute_id" integer NOT NULL,
	"deal_id" integer NOT NULL,
	"proposed_by_id" integer NOT NULL,
	"to_dealmaker_cents" bigint NOT NULL,
	"refund_to_creator_cents" bigint NOT NULL,
	"refund_to_counterpart_cents" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "settlement_proposals_amounts" CHECK ("settlement_proposals"."to_dealmaker_cents" >= 0 and "settlement_proposals"."refund_to_creator_cents" >= 0 and "settlement_proposals"."refund_to_counterpart_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"deal_id" integer PRIMARY KEY NOT NULL,
	"dispute_id" integer NOT NULL,
	"proposal_id" integer,
	"operator_id" integer,
	"to_dealmaker_cents" bigint NOT NULL,
	"refund_to_creator_cents" bigint NOT NULL,
	"refund_to_counterpart_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "escalates_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "disputes" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "escrows" ADD COLUMN "lone_half_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settlement_acceptances" ADD CONSTRAINT "settlement_acceptances_proposal_id_settlement_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."settlement_proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_acceptances" ADD CONSTRAINT "settlement_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_proposals" ADD CONSTRAINT "settlement_proposals_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_proposals" ADD CONSTRAINT "settlement_proposals_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_proposals" ADD CONSTRAINT "settlement_proposals_proposed_by_id_users_id_fk" FOREIGN KEY ("proposed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_proposal_id_settlement_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."settlement_proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_deal_id" ON "audit_log" USING btree ("deal_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_username" ON "audit_log" USING btree ("actor_username","id");--> statement-breakpoint
CREATE INDEX "settlement_proposals_dispute_id" ON "settlement_proposals" USING btree ("dispute_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_proposals_one_open" ON "settlement_proposals" USING btree ("dispute_id") WHERE "settlement_proposals"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_dispute_id_key" ON "settlements" USING btree ("dispute_id");
--> statement-breakpoint
-- The audit log. The server names, per transaction, who makes a change and from which address
-- (server/db/transaction.ts sets dealmaker.actor_id, dealmaker.actor_username and dealmaker.address);
-- these triggers write one entry per changed row of a deal and per money movement, so no code path
-- can change a deal or move money without leaving one.
CREATE FUNCTION "audit_entry"(action text, deal integer, subject text, before jsonb, after jsonb)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO audit_log (actor_id, actor_username, action, deal_id, subject, before, after, address)
  VALUES (nullif(current_setting('dealmaker.actor_id', true), '')::integer,
          nullif(current_setting('dealmaker.actor_username', true), ''),
          action, deal, subject, before, after,
          nullif(current_setting('dealmaker.address', true), ''));
$$;--> statement-breakpoint
CREATE FUNCTION "audit_deal_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) - 'search_text' END;
  after jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) - 'search_text' END;
  row_data jsonb := coalesce(after, before);
  deal integer := (CASE WHEN TG_TABLE_NAME = 'deals' THEN row_data->>'id' ELSE row_data->>'deal_id' END)::integer;
  key text := coalesce(row_data->>'id', row_data->>'deal_id');
BEGIN
  IF TG_OP = 'UPDATE' AND before = after THEN
    RETURN NULL;
  END IF;
  PERFORM audit_entry(TG_TABLE_NAME || '.' || lower(TG_OP), deal, TG_TABLE_NAME || ':' || key, before, after);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "audit_money_movement"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM audit_entry('money.' || NEW.type, NEW.deal_id, 'wallet:' || NEW.user_id,
    jsonb_build_object('balanceCents', NEW.balance_after_cents - NEW.amount_cents),
    to_jsonb(NEW) || jsonb_build_object('balanceCents', NEW.balance_after_cents));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_deals" AFTER INSERT OR UPDATE OR DELETE ON "deals"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_bids" AFTER INSERT OR UPDATE OR DELETE ON "bids"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_dealmaker_requests" AFTER INSERT OR UPDATE OR DELETE ON "dealmaker_requests"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_escrows" AFTER INSERT OR UPDATE OR DELETE ON "escrows"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_progress_items" AFTER INSERT OR UPDATE OR DELETE ON "progress_items"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_disputes" AFTER INSERT OR UPDATE OR DELETE ON "disputes"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_reviews" AFTER INSERT OR UPDATE OR DELETE ON "reviews"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_settlement_proposals" AFTER INSERT OR UPDATE OR DELETE ON "settlement_proposals"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_settlements" AFTER INSERT OR UPDATE OR DELETE ON "settlements"
  FOR EACH ROW EXECUTE FUNCTION "audit_deal_row"();--> statement-breakpoint
CREATE TRIGGER "audit_wallet_transactions" AFTER INSERT ON "wallet_transactions"
  FOR EACH ROW EXECUTE FUNCTION "audit_money_movement"();--> statement-breakpoint
-- The log itself is never changed nor deleted, by any route or any statement.
CREATE FUNCTION "audit_log_is_final"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is never changed or deleted (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_final_rows" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_is_final"();--> statement-breakpoint
CREATE TRIGGER "audit_log_final_table" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_is_final"();
