-- Issue 46, decision 081: calendar addresses (iCalendar feeds) a phone subscribes to; the secret is
-- kept as its SHA-256 only. One working address per sign-in and scope (own, office); revoked ones kept
-- for the action log's sake until their sign-in goes.
CREATE TABLE "calendar_feeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"scope" text NOT NULL CHECK ("scope" in ('own', 'office')),
	"hint" text NOT NULL,
	-- The language its texts are written in: the one its owner read the CRM in when making it.
	"culture" text DEFAULT 'el' NOT NULL,
	"token_hash" bytea NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_on" timestamp with time zone,
	"revoked_on" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_hash_uq" ON "calendar_feeds" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_active_uq" ON "calendar_feeds" USING btree ("user_id", "scope") WHERE "revoked_on" IS NULL;
