-- Issue 47, documents from templates (decision 084): the agency's own texts of a document template
-- in one language (the mandate, simple or exclusive; the offer agreement; the handover protocol).
-- A template without a row here uses the default texts (doctemplates.default.*); "reset to
-- default" deletes the row.
CREATE TABLE "doc_templates" (
  "kind" text NOT NULL,
  "culture" text NOT NULL,
  "title" text NOT NULL,
  "body" text NOT NULL,
  "signatures" text NOT NULL DEFAULT '',
  "modified_on" timestamp with time zone DEFAULT now() NOT NULL,
  "modified_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "version" integer DEFAULT 1 NOT NULL,
  CONSTRAINT "doc_templates_pk" PRIMARY KEY ("kind", "culture"),
  CONSTRAINT "doc_templates_kind" CHECK ("kind" IN ('mandateSimple', 'mandateExclusive', 'offer', 'handover')),
  CONSTRAINT "doc_templates_culture" CHECK ("culture" IN ('en', 'el', 'ru'))
);--> statement-breakpoint
CREATE TRIGGER doc_templates_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON doc_templates FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
