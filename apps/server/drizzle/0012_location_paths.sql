ALTER TABLE "locations" ADD COLUMN "key" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "path" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "text_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "text_el" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "text_ru" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "locations_key_uq" ON "locations" USING btree ("key");--> statement-breakpoint
CREATE INDEX "locations_path_idx" ON "locations" USING gin ("path");