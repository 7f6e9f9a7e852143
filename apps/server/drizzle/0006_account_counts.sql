CREATE TABLE "account_counts" (
	"kind" text PRIMARY KEY NOT NULL,
	"n" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Adds the deltas to the counters, one kind at a time in a fixed order (no deadlocks between
-- concurrent writers), and only where a count changed: saving a name locks nothing.
CREATE OR REPLACE FUNCTION crm_account_counts_apply(deltas integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  kinds constant text[] := ARRAY['all', 'client', 'employe', 'owner', 'partner', 'professional', 'source'];
BEGIN
  FOR i IN 1 .. array_length(kinds, 1) LOOP
    IF deltas[i] <> 0 THEN
      UPDATE public.account_counts SET n = n + deltas[i] WHERE kind = kinds[i];
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_account_counts_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_account_counts_apply((
    SELECT ARRAY[count(*), count(*) FILTER (WHERE is_client), count(*) FILTER (WHERE is_employe), count(*) FILTER (WHERE is_owner),
      count(*) FILTER (WHERE is_partner_real_estate OR is_partner_tourism), count(*) FILTER (WHERE is_professional), count(*) FILTER (WHERE is_source)]::integer[]
    FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_account_counts_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.crm_account_counts_apply((
    SELECT ARRAY[-count(*), -count(*) FILTER (WHERE is_client), -count(*) FILTER (WHERE is_employe), -count(*) FILTER (WHERE is_owner),
      -count(*) FILTER (WHERE is_partner_real_estate OR is_partner_tourism), -count(*) FILTER (WHERE is_professional), -count(*) FILTER (WHERE is_source)]::integer[]
    FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_account_counts_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- +1/-1 per kind flag that changed; most updates (names, notes...) change none.
  PERFORM public.crm_account_counts_apply((
    SELECT ARRAY[0,
      coalesce(sum(n.is_client::int - o.is_client::int), 0),
      coalesce(sum(n.is_employe::int - o.is_employe::int), 0),
      coalesce(sum(n.is_owner::int - o.is_owner::int), 0),
      coalesce(sum((n.is_partner_real_estate OR n.is_partner_tourism)::int - (o.is_partner_real_estate OR o.is_partner_tourism)::int), 0),
      coalesce(sum(n.is_professional::int - o.is_professional::int), 0),
      coalesce(sum(n.is_source::int - o.is_source::int), 0)]::integer[]
    FROM new_rows n JOIN old_rows o ON o.id = n.id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_counts_ins AFTER INSERT ON accounts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_account_counts_ins();
--> statement-breakpoint
CREATE TRIGGER accounts_counts_del AFTER DELETE ON accounts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_account_counts_del();
--> statement-breakpoint
CREATE TRIGGER accounts_counts_upd AFTER UPDATE ON accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm_account_counts_upd();
--> statement-breakpoint
-- Start from the accounts already there.
INSERT INTO account_counts (kind, n)
SELECT k.kind, k.n FROM (
  SELECT count(*) AS a, count(*) FILTER (WHERE is_client) AS c, count(*) FILTER (WHERE is_employe) AS e, count(*) FILTER (WHERE is_owner) AS o,
    count(*) FILTER (WHERE is_partner_real_estate OR is_partner_tourism) AS p, count(*) FILTER (WHERE is_professional) AS pr, count(*) FILTER (WHERE is_source) AS s
  FROM accounts) t,
LATERAL (VALUES ('all', t.a), ('client', t.c), ('employe', t.e), ('owner', t.o), ('partner', t.p), ('professional', t.pr), ('source', t.s)) AS k(kind, n);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_account_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE public.account_counts SET n = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_counts_truncate AFTER TRUNCATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION crm_account_counts_truncate();
