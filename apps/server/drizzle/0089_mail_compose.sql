-- Issue 46, new mail from the records (decision 089): each mailbox's signature, put under every
-- mail written in the CRM (new mail and replies); and the agency's mail texts (a viewing
-- confirmation, a document request, a follow-up) kept beside the document templates, editable per
-- language in Settings with the same version guard.
ALTER TABLE "mailboxes" ADD COLUMN "signature" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "doc_templates" DROP CONSTRAINT "doc_templates_kind";--> statement-breakpoint
ALTER TABLE "doc_templates" ADD CONSTRAINT "doc_templates_kind" CHECK ("kind" IN ('mandateSimple', 'mandateExclusive', 'offer', 'handover', 'mailViewing', 'mailDocuments', 'mailFollowUp'));
