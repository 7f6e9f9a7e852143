-- Portal enquiries by mail (decision 082). The lead source each portal's enquiries get, found by a
-- stable key ('spitogatos', 'xe', 'indomio'), not by its name; gone with its account, made again.
CREATE TABLE "enquiry_sources" (
	"key" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE
);--> statement-breakpoint
-- One row per enquiry mail, keyed on its Message-ID: the same mail synced again, in another
-- mailbox, or after a crash makes no second lead. The lead and message it made are linked here.
CREATE TABLE "mail_enquiries" (
	"message_key" text PRIMARY KEY NOT NULL,
	"mail_message_id" integer REFERENCES "mail_messages"("id") ON DELETE SET NULL,
	"source" text NOT NULL,
	"portal_ref" text,
	"lead_id" integer REFERENCES "leads"("id") ON DELETE SET NULL,
	"account_id" integer REFERENCES "accounts"("id") ON DELETE SET NULL,
	"object_id" integer REFERENCES "objects"("id") ON DELETE SET NULL,
	"sent_on" timestamp with time zone,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "mail_enquiries_lead_idx" ON "mail_enquiries" USING btree ("lead_id", "sent_on" DESC, "mail_message_id" DESC);--> statement-breakpoint
CREATE INDEX "mail_enquiries_message_idx" ON "mail_enquiries" USING btree ("mail_message_id");--> statement-breakpoint
CREATE INDEX "enquiry_sources_account_idx" ON "enquiry_sources" USING btree ("account_id");--> statement-breakpoint
-- The lead's screen shows its enquiry mail: a change is counted (kept answers, drawn pages).
CREATE TRIGGER mail_enquiries_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mail_enquiries FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER enquiry_sources_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON enquiry_sources FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
