-- Decision 086: the account a document was sent to for signature (the record's party whose e-mail
-- the link went to), so that the person's data export finds their signatures and an erasure reaches
-- them even after the account's e-mail has changed. Requests sent before keep null and are found by
-- the e-mail they went to.
ALTER TABLE "sign_requests" ADD COLUMN "signer_account_id" integer REFERENCES "accounts"("id") ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX "sign_requests_signer_account_idx" ON "sign_requests" ("signer_account_id");
