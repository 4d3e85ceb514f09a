DROP INDEX "messages_deal_created";--> statement-breakpoint
CREATE INDEX "messages_deal_id" ON "messages" USING btree ("deal_id","id");