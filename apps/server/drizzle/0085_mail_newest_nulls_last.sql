-- A record's mail is read newest first with the undated last (sent_on desc nulls last): the links'
-- date indexes of 0075 descended with the undated first, so a page of an account's 2,000 messages
-- sorted all of them (npm run bench). Made again in the lists' own order, read from the index.
DROP INDEX "mail_message_accounts_newest_idx";--> statement-breakpoint
CREATE INDEX "mail_message_accounts_newest_idx" ON "mail_message_accounts" USING btree ("account_id", "sent_on" DESC NULLS LAST, "message_id" DESC);--> statement-breakpoint
DROP INDEX "mail_message_objects_newest_idx";--> statement-breakpoint
CREATE INDEX "mail_message_objects_newest_idx" ON "mail_message_objects" USING btree ("object_id", "sent_on" DESC NULLS LAST, "message_id" DESC);
