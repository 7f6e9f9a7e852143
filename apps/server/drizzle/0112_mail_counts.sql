-- A record's mail counted ahead (decision 105): the total of an account's, a property's or a lead's
-- thread (the timeline's pager, GET /api/mail) read 2,000 messages one by one on every request for
-- the account with 2,000 (4.7 ms of PostgreSQL). mail_counts holds per record (kind 0 account,
-- 1 property, 2 lead) and mailbox how many of its linked messages are not marked deleted; a reader
-- sums the mailboxes it sees, so a mailbox made private or shared changes nothing kept.
-- Writers only insert into mail_count_changes the records whose links changed (kinds 0-2) and the
-- messages marked deleted, shown again or moved (kind 3): no save waits for another's counts, and
-- no lock is taken. The job mail.countsFold counts those records again from the links (a message's
-- records as its links are then); a record with a change not yet folded is counted on the spot.
CREATE TABLE "mail_counts" (
	"kind" smallint NOT NULL,
	"record_id" integer NOT NULL,
	"mailbox_id" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "mail_counts_pk" PRIMARY KEY("kind","record_id","mailbox_id")
);--> statement-breakpoint
CREATE TABLE "mail_count_changes" (
	"kind" smallint NOT NULL,
	"id" integer NOT NULL
);--> statement-breakpoint
CREATE INDEX "mail_count_changes_idx" ON "mail_count_changes" USING btree ("kind","id");--> statement-breakpoint
-- Links added, removed or changed: their records (a message removed takes its links with it: its records come here too).
CREATE OR REPLACE FUNCTION crm_mail_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k smallint := TG_ARGV[0]::smallint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO public.mail_count_changes (kind, id) SELECT DISTINCT k, (to_jsonb(n) ->> TG_ARGV[1])::int FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO public.mail_count_changes (kind, id) SELECT DISTINCT k, (to_jsonb(o) ->> TG_ARGV[1])::int FROM old_rows o;
  ELSE
    INSERT INTO public.mail_count_changes (kind, id) SELECT DISTINCT k, x.record_id::int FROM (
      SELECT to_jsonb(n) ->> TG_ARGV[1] AS record_id FROM new_rows n UNION SELECT to_jsonb(o) ->> TG_ARGV[1] FROM old_rows o) x;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Messages marked deleted on the server, shown again, or moved to another mailbox: the messages (their records are found when folded).
CREATE OR REPLACE FUNCTION crm_mail_messages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.mail_count_changes (kind, id)
  SELECT 3, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE (n.deleted_on IS NULL) <> (o.deleted_on IS NULL) OR n.mailbox_id <> o.mailbox_id;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The records of the changes counted again (the job; one at a time). The changes are taken in one
-- statement and counted in later ones (each its own snapshot): a change committed after they were
-- taken stays for the next fold, and its record is counted on the spot until then.
CREATE OR REPLACE FUNCTION crm_mail_counts_fold() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  taken jsonb;
  accs int[];
  objs int[];
  lds int[];
  msgs int[];
BEGIN
  IF NOT pg_try_advisory_xact_lock(7275112) THEN RETURN; END IF;
  -- The tables read, locked before anything is written: a truncate under way is waited for here
  -- (it takes no lock of the fold's), and one coming later waits for the fold's end.
  LOCK TABLE public.mail_messages, public.mail_message_accounts, public.mail_message_objects, public.mail_message_leads IN ACCESS SHARE MODE;
  WITH d AS (DELETE FROM public.mail_count_changes RETURNING kind, id) SELECT jsonb_agg(jsonb_build_array(kind, id)) INTO taken FROM d;
  IF taken IS NULL THEN RETURN; END IF;
  SELECT array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 0), array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 1),
    array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 2), array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 3)
  INTO accs, objs, lds, msgs FROM jsonb_array_elements(taken) x;
  IF msgs IS NOT NULL THEN
    accs := array(SELECT unnest(coalesce(accs, '{}')) UNION SELECT account_id FROM public.mail_message_accounts WHERE message_id = any(msgs));
    objs := array(SELECT unnest(coalesce(objs, '{}')) UNION SELECT object_id FROM public.mail_message_objects WHERE message_id = any(msgs));
    lds := array(SELECT unnest(coalesce(lds, '{}')) UNION SELECT lead_id FROM public.mail_message_leads WHERE message_id = any(msgs));
  END IF;
  DELETE FROM public.mail_counts WHERE (kind = 0 AND record_id = any(accs)) OR (kind = 1 AND record_id = any(objs)) OR (kind = 2 AND record_id = any(lds));
  INSERT INTO public.mail_counts (kind, record_id, mailbox_id, n)
  SELECT 0, l.account_id, m.mailbox_id, count(*) FROM public.mail_message_accounts l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL
  WHERE l.account_id = any(accs) GROUP BY 2, 3
  UNION ALL SELECT 1, l.object_id, m.mailbox_id, count(*) FROM public.mail_message_objects l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL
  WHERE l.object_id = any(objs) GROUP BY 2, 3
  UNION ALL SELECT 2, l.lead_id, m.mailbox_id, count(*) FROM public.mail_message_leads l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL
  WHERE l.lead_id = any(lds) GROUP BY 2, 3;
END $$;--> statement-breakpoint
-- Counted whole (the migration; the bench generator's load without triggers), under the fold's lock,
-- the links and messages share-locked so that nothing changes between the changes' deletion and the count.
CREATE OR REPLACE FUNCTION crm_mail_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE public.mail_messages, public.mail_message_accounts, public.mail_message_objects, public.mail_message_leads IN SHARE MODE;
  PERFORM pg_advisory_xact_lock(7275112);
  DELETE FROM public.mail_count_changes;
  DELETE FROM public.mail_counts;
  INSERT INTO public.mail_counts (kind, record_id, mailbox_id, n)
  SELECT 0, l.account_id, m.mailbox_id, count(*) FROM public.mail_message_accounts l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL GROUP BY 2, 3
  UNION ALL SELECT 1, l.object_id, m.mailbox_id, count(*) FROM public.mail_message_objects l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL GROUP BY 2, 3
  UNION ALL SELECT 2, l.lead_id, m.mailbox_id, count(*) FROM public.mail_message_leads l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL GROUP BY 2, 3;
END $$;--> statement-breakpoint
-- A link table truncated (alone, or with the messages or the mailboxes): its kind's counts go. The
-- fold's lock is not taken: the truncate holds the table's exclusive lock already, and a fold waits
-- for it before writing anything (or had read the table, and the truncate waited for its end).
CREATE OR REPLACE FUNCTION crm_mail_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM public.mail_count_changes WHERE kind = TG_ARGV[0]::smallint;
  DELETE FROM public.mail_counts WHERE kind = TG_ARGV[0]::smallint;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER mail_message_accounts_counts_ins AFTER INSERT ON mail_message_accounts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('0', 'account_id');--> statement-breakpoint
CREATE TRIGGER mail_message_accounts_counts_upd AFTER UPDATE ON mail_message_accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('0', 'account_id');--> statement-breakpoint
CREATE TRIGGER mail_message_accounts_counts_del AFTER DELETE ON mail_message_accounts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('0', 'account_id');--> statement-breakpoint
CREATE TRIGGER mail_message_accounts_counts_truncate AFTER TRUNCATE ON mail_message_accounts FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_counts_truncate('0');--> statement-breakpoint
CREATE TRIGGER mail_message_objects_counts_ins AFTER INSERT ON mail_message_objects REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('1', 'object_id');--> statement-breakpoint
CREATE TRIGGER mail_message_objects_counts_upd AFTER UPDATE ON mail_message_objects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('1', 'object_id');--> statement-breakpoint
CREATE TRIGGER mail_message_objects_counts_del AFTER DELETE ON mail_message_objects REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('1', 'object_id');--> statement-breakpoint
CREATE TRIGGER mail_message_objects_counts_truncate AFTER TRUNCATE ON mail_message_objects FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_counts_truncate('1');--> statement-breakpoint
CREATE TRIGGER mail_message_leads_counts_ins AFTER INSERT ON mail_message_leads REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('2', 'lead_id');--> statement-breakpoint
CREATE TRIGGER mail_message_leads_counts_upd AFTER UPDATE ON mail_message_leads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('2', 'lead_id');--> statement-breakpoint
CREATE TRIGGER mail_message_leads_counts_del AFTER DELETE ON mail_message_leads REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('2', 'lead_id');--> statement-breakpoint
CREATE TRIGGER mail_message_leads_counts_truncate AFTER TRUNCATE ON mail_message_leads FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_counts_truncate('2');--> statement-breakpoint
CREATE TRIGGER mail_messages_counts_upd AFTER UPDATE ON mail_messages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_messages_changed();--> statement-breakpoint
SELECT crm_mail_counts_rebuild();
