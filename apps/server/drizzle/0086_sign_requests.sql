-- Issue 47, decision 086: documents sent for signature by link. A request keeps the exact PDF the
-- signer is shown (a stored file and its SHA-256), the version of the record it was made from (a
-- change voids the link), the link's token as its SHA-256 only, when it expires, and once signed:
-- who typed which name, when, from which address and device, and the signed copy among the files.
CREATE TABLE "sign_requests" (
  "id" serial PRIMARY KEY NOT NULL,
  "source" text NOT NULL,
  "source_id" integer NOT NULL,
  "source_version" integer NOT NULL,
  "parent_type" integer NOT NULL,
  "parent_id" integer NOT NULL,
  "culture" text NOT NULL,
  "signer_name" text NOT NULL,
  "signer_email" text NOT NULL,
  "token_hash" text NOT NULL,
  "document_name" text NOT NULL,
  "pdf_system_name" text NOT NULL,
  "pdf_size" integer NOT NULL,
  "pdf_sha256" text NOT NULL,
  "sent_on" timestamp with time zone DEFAULT now() NOT NULL,
  "sent_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "sent_by_name" text,
  "expires_on" timestamp with time zone NOT NULL,
  "revoked_on" timestamp with time zone,
  "revoked_by_name" text,
  "signed_on" timestamp with time zone,
  "signed_name" text,
  "signed_ip" text,
  "signed_user_agent" text,
  "signed_sha256" text,
  "signed_file_id" integer REFERENCES "files"("id") ON DELETE SET NULL,
  "version" integer DEFAULT 1 NOT NULL,
  CONSTRAINT "sign_requests_token_hash" UNIQUE ("token_hash"),
  CONSTRAINT "sign_requests_source" CHECK ("source" IN ('mandate', 'offer', 'handover')),
  CONSTRAINT "sign_requests_culture" CHECK ("culture" IN ('en', 'el', 'ru'))
);--> statement-breakpoint
CREATE INDEX "sign_requests_source_idx" ON "sign_requests" ("source", "source_id");--> statement-breakpoint
CREATE TRIGGER sign_requests_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sign_requests FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
