CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"singleton_key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"started_on" timestamp with time zone,
	"finished_on" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "alerts_date_idx";--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "message_key" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "params" jsonb;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "entity" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "entity_id" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "dedup_key" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_queued_idx" ON "jobs" USING btree ("run_at","id") WHERE "jobs"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_running_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."state" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("state","finished_on") WHERE "jobs"."state" in ('done', 'failed');--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_uq" ON "jobs" USING btree ("name","singleton_key") WHERE "jobs"."singleton_key" is not null and "jobs"."state" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_dedup_key_uq" ON "alerts" USING btree ("dedup_key");--> statement-breakpoint
CREATE INDEX "alerts_date_idx" ON "alerts" USING btree ("date","id");