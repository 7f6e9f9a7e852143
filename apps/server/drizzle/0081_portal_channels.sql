-- Issue 48, decision 083: the property portals as channels (Kyero, Indomio, Spitogatos, xe.gr), each
-- with its own feed address (an unguessable secret), agency id at the portal and choice of
-- properties (every published one, or those chosen one by one in portal_channel_objects).
CREATE TABLE "portal_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL CHECK ("kind" IN ('kyero', 'indomio', 'spitogatos', 'xe')),
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"selection" text DEFAULT 'all' NOT NULL CHECK ("selection" IN ('all', 'chosen')),
	"feed_secret" text NOT NULL,
	"agency_id" text,
	"last_fetched_on" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "portal_channels_secret_uq" ON "portal_channels" USING btree ("feed_secret");--> statement-breakpoint
CREATE TABLE "portal_channel_objects" (
	"channel_id" integer NOT NULL REFERENCES "portal_channels"("id") ON DELETE CASCADE,
	"object_id" integer NOT NULL REFERENCES "objects"("id") ON DELETE CASCADE,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("channel_id", "object_id")
);--> statement-breakpoint
CREATE INDEX "portal_channel_objects_object_idx" ON "portal_channel_objects" USING btree ("object_id");--> statement-breakpoint
-- A channel's feed is kept with the public pages (public.cache.ts): a change to what goes in it tells
-- every instance (migration 0052's notice); a fetch (last_fetched_on) does not.
CREATE TRIGGER portal_channels_public_site AFTER INSERT OR DELETE OR UPDATE OF kind, name, enabled, selection, feed_secret, agency_id ON portal_channels
  FOR EACH STATEMENT EXECUTE FUNCTION crm_public_site_changed();--> statement-breakpoint
CREATE TRIGGER portal_channel_objects_public_site AFTER INSERT OR UPDATE OR DELETE ON portal_channel_objects
  FOR EACH STATEMENT EXECUTE FUNCTION crm_public_site_changed();
