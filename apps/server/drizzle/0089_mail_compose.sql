-- Issue 46, new mail from the records (decision 089): each mailbox's signature, put under every
-- mail written in the CRM (new mail and replies); and the agency's mail texts (a viewing
-- confirmation, a document request, a follow-up) kept beside the document templates, editable per
-- language in Settings with the same version guard.
ALTER TABLE "mailboxes" ADD COLUMN "signature" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "doc_templates" DROP CONSTRAINT "doc_templates_kind";--> statement-breakpoint
ALTER TABLE "doc_templates" ADD CONSTRAINT "doc_templates_kind" CHECK ("kind" IN ('mandateSimple', 'mandateExclusive', 'offer', 'handover', 'mailViewing', 'mailDocuments', 'mailFollowUp'));
--> statement-breakpoint
-- A mail attachment saved to a record's files in one click: once per record (a second click finds
-- it); the link goes with the file when the file is deleted, so it can be saved again.
CREATE TABLE "mail_attachment_files" (
  "attachment_id" integer NOT NULL REFERENCES "mail_attachments"("id") ON DELETE CASCADE,
  "parent_type" smallint NOT NULL,
  "parent_id" integer NOT NULL,
  "file_id" integer NOT NULL REFERENCES "files"("id") ON DELETE CASCADE,
  "created_on" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "mail_attachment_files_pk" PRIMARY KEY ("attachment_id", "parent_type", "parent_id")
);--> statement-breakpoint
CREATE INDEX "mail_attachment_files_file_idx" ON "mail_attachment_files" USING btree ("file_id");--> statement-breakpoint
CREATE TRIGGER mail_attachment_files_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mail_attachment_files FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
