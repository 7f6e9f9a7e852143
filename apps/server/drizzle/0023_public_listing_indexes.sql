-- Hand-written. The public listing pages (decision 022) read only what the public may see
-- (published and publish_requested and active), newest first, or within a place: these partial
-- indexes hold just those objects, so a page reads its 20 rows from the index instead of scanning
-- and sorting every object, and the count walks the published ones only.
CREATE INDEX IF NOT EXISTS objects_public_recent_idx ON objects (last_update DESC NULLS LAST, id DESC) WHERE published AND publish_requested AND active;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS objects_public_location_idx ON objects (location_id) WHERE published AND publish_requested AND active;
