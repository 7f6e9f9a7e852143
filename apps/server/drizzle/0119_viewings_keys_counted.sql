-- The Viewings list and the keys register, unfiltered, read their total from row_counts (0027)
-- instead of counting 20,000 viewings (1 ms of PostgreSQL) and 20,000 keys (2-3 ms) for every page
-- (decision 121). The same statement triggers as leads, objects and alerts; the triggers first, so
-- that no write can slip between the count below and them (CREATE TRIGGER holds off writes to the
-- table until the migration commits).
CREATE TRIGGER viewings_counts_ins AFTER INSERT ON viewings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_row_counts_ins();--> statement-breakpoint
CREATE TRIGGER viewings_counts_del AFTER DELETE ON viewings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_row_counts_del();--> statement-breakpoint
CREATE TRIGGER viewings_counts_truncate AFTER TRUNCATE ON viewings FOR EACH STATEMENT EXECUTE FUNCTION crm_row_counts_truncate();--> statement-breakpoint
CREATE TRIGGER object_keys_counts_ins AFTER INSERT ON object_keys REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_row_counts_ins();--> statement-breakpoint
CREATE TRIGGER object_keys_counts_del AFTER DELETE ON object_keys REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_row_counts_del();--> statement-breakpoint
CREATE TRIGGER object_keys_counts_truncate AFTER TRUNCATE ON object_keys FOR EACH STATEMENT EXECUTE FUNCTION crm_row_counts_truncate();--> statement-breakpoint
-- Counts everything again (after a bulk load that skipped the triggers): the two tables too.
CREATE OR REPLACE FUNCTION crm_row_counts_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.row_counts (name, n) VALUES
    ('leads', (SELECT count(*) FROM public.leads)),
    ('objects', (SELECT count(*) FROM public.objects)),
    ('alerts', (SELECT count(*) FROM public.alerts)),
    ('alerts.unread', (SELECT count(*) FROM public.alerts WHERE readed_on IS NULL)),
    ('viewings', (SELECT count(*) FROM public.viewings)),
    ('object_keys', (SELECT count(*) FROM public.object_keys))
  ON CONFLICT (name) DO UPDATE SET n = excluded.n;
END $$;--> statement-breakpoint
INSERT INTO row_counts (name, n) VALUES
  ('viewings', (SELECT count(*) FROM viewings)),
  ('object_keys', (SELECT count(*) FROM object_keys))
ON CONFLICT (name) DO UPDATE SET n = excluded.n;
