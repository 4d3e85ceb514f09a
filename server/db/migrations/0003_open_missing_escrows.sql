-- The escrow is now opened in the transaction that assigns the deal's dealmaker, so reads never write.
-- Deals that got their dealmaker before that have no escrow yet: open it now, as a first read used to
-- (amount = budget; the creator's share is ceil(amount / 2) cents, the counterpart's the rest).
INSERT INTO "escrows" ("deal_id", "amount_cents", "creator_share_cents", "counterpart_share_cents")
SELECT "id", "budget_cents", "budget_cents" - "budget_cents" / 2, "budget_cents" / 2
  FROM "deals"
 WHERE "dealmaker_id" IS NOT NULL
ON CONFLICT ("deal_id") DO NOTHING;
