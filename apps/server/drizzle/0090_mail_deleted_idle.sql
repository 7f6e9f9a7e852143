-- Mail expunged from the server's folder is marked, not removed (decision 090): hidden from the
-- threads, kept for the lead it made and the action log. A mailbox's IDLE watcher is held by one
-- instance at a time: a lease in its row, as the sync's.
ALTER TABLE "mail_messages" ADD COLUMN "deleted_on" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "idle_held_by" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "idle_locked_until" timestamp with time zone;
