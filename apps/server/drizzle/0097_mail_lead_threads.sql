-- Issue 46, mail on the leads (decision 089): a lead's thread. A mail written from the lead's view,
-- a reply to one of its messages, and a client's answer that names one of them in In-Reply-To or
-- References are kept on the lead; so is the portal enquiry the lead was made from (decision 082).
CREATE TABLE "mail_message_leads" (
	"message_id" integer NOT NULL REFERENCES "mail_messages"("id") ON DELETE CASCADE,
	"lead_id" integer NOT NULL REFERENCES "leads"("id") ON DELETE CASCADE,
	"sent_on" timestamp with time zone,
	CONSTRAINT "mail_message_leads_pk" PRIMARY KEY ("lead_id", "message_id")
);--> statement-breakpoint
CREATE INDEX "mail_message_leads_newest_idx" ON "mail_message_leads" USING btree ("lead_id", "sent_on" DESC NULLS LAST, "message_id" DESC);--> statement-breakpoint
CREATE INDEX "mail_message_leads_message_idx" ON "mail_message_leads" USING btree ("message_id");--> statement-breakpoint
-- The enquiry mail each lead was made from is the first of its thread.
INSERT INTO "mail_message_leads" ("message_id", "lead_id", "sent_on")
	SELECT "mail_message_id", "lead_id", "sent_on" FROM "mail_enquiries" WHERE "mail_message_id" IS NOT NULL AND "lead_id" IS NOT NULL
	ON CONFLICT DO NOTHING;--> statement-breakpoint
-- A client's answer is put on the lead of the message it answers, found by that message's
-- Message-ID in any mailbox: without this index each synced answer read every message.
CREATE INDEX "mail_messages_message_id_idx" ON "mail_messages" USING btree ("message_id");--> statement-breakpoint
CREATE TRIGGER mail_message_leads_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mail_message_leads FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
