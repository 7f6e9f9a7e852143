-- Decision 086: the deal a property's handover protocol was sent from. A property let or sold again
-- has a protocol per deal; a deal's page lists its own, not those of the deals before it.
ALTER TABLE "sign_requests" ADD COLUMN "deal_id" integer REFERENCES "deals"("id") ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX "sign_requests_deal_idx" ON "sign_requests" ("deal_id") WHERE "deal_id" IS NOT NULL;
