-- Issue 48, decision 091: the errors a portal reports on its import of a channel's feed, posted to the
-- channel's report address (/feed/{secret}/report). Each report is the portal's whole answer on one
-- import: it replaces the channel's earlier ones. A reference the CRM does not know is kept (object_id null).
CREATE TABLE "portal_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL REFERENCES "portal_channels"("id") ON DELETE CASCADE,
	"ref" text NOT NULL,
	"object_id" integer REFERENCES "objects"("id") ON DELETE CASCADE,
	"message" text NOT NULL,
	"reported_on" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "portal_reports_channel_idx" ON "portal_reports" USING btree ("channel_id", "ref");--> statement-breakpoint
CREATE INDEX "portal_reports_object_idx" ON "portal_reports" USING btree ("object_id");
