-- Money movements are audited once per statement instead of once per row: a statement that writes
-- several history rows (deposits written together, wallet/deposits.ts) pays for one trigger call and one
-- INSERT … SELECT, not for one PL/pgSQL call and one INSERT per row. The entries are the same as before.
DROP TRIGGER "audit_wallet_transactions" ON "wallet_transactions";--> statement-breakpoint
DROP FUNCTION "audit_money_movement"();--> statement-breakpoint
CREATE FUNCTION "audit_money_movements"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_log (actor_id, actor_username, action, deal_id, subject, before, after, address)
  SELECT nullif(current_setting('dealmaker.actor_id', true), '')::integer,
         nullif(current_setting('dealmaker.actor_username', true), ''),
         'money.' || moved.type, moved.deal_id, 'wallet:' || moved.user_id,
         jsonb_build_object('balanceCents', moved.balance_after_cents - moved.amount_cents),
         to_jsonb(moved) || jsonb_build_object('balanceCents', moved.balance_after_cents),
         nullif(current_setting('dealmaker.address', true), '')
    FROM new_rows moved
   ORDER BY moved.id;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_wallet_transactions" AFTER INSERT ON "wallet_transactions"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_money_movements"();
