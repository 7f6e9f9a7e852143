-- The agency's own details for its public site (decision 022): the name it shows, a phone, an
-- e-mail and an address, set by an office admin on the Settings page. One row, always there; a
-- detail not set is null and the public pages show nothing for it.
CREATE TABLE "site_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text,
	"phone" text,
	"email" text,
	"address" text,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "site_settings_one_row" CHECK ("id" = 1)
);
--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
INSERT INTO "site_settings" ("id") VALUES (1);
