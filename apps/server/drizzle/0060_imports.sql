-- Spreadsheets brought in (decision 052): the file as read between upload and import, and what the import made.
CREATE TABLE "imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"file_hash" text NOT NULL,
	"headers" jsonb NOT NULL,
	"cells" jsonb NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"imported_on" timestamp with time zone,
	"imported_by_name" text,
	"result" jsonb
);--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "imports_token_hash_idx" ON "imports" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "imports_file_hash_idx" ON "imports" USING btree ("file_hash");
