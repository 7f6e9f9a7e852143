ALTER TABLE "files" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "thumb_name" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "web_name" text;