-- The deals' totals kept per type and stage (decision 072): the deals list and board, filtered by
-- type and stages only (their first pages), read 12 rows instead of summing 20,000 deals (5-8 ms of
-- PostgreSQL at full size). Kept by statement triggers in the changing transaction, as deltas that
-- nothing updates (deal_total_deltas: a save never waits for another's totals); the job
-- deals.totalsFold adds them into deal_totals every minute, and readers read both. An update that
-- changes no type, stage, price or commission writes nothing. `amounts`: how many of the cell's
-- deals have a price (final or asking), so that a sum over none stays 0, as the board writes it.
CREATE TABLE "deal_totals" (
	"deal_type" smallint NOT NULL,
	"deal_stage" smallint NOT NULL,
	"n" bigint NOT NULL,
	"amounts" bigint NOT NULL,
	"amount" numeric NOT NULL,
	"commission" numeric NOT NULL,
	CONSTRAINT "deal_totals_deal_type_deal_stage_pk" PRIMARY KEY("deal_type","deal_stage")
);--> statement-breakpoint
CREATE TABLE "deal_total_deltas" (
	"deal_type" smallint NOT NULL,
	"deal_stage" smallint NOT NULL,
	"n" bigint NOT NULL,
	"amounts" bigint NOT NULL,
	"amount" numeric NOT NULL,
	"commission" numeric NOT NULL
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_deal_totals_add(lines jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.deal_total_deltas (deal_type, deal_stage, n, amounts, amount, commission)
  SELECT x.deal_type, x.deal_stage, sum(x.sign), sum(x.sign * (x.amount IS NOT NULL)::int), coalesce(sum(x.sign * x.amount), 0), coalesce(sum(x.sign * x.commission), 0)
  FROM jsonb_to_recordset(lines) AS x(deal_type smallint, deal_stage smallint, sign int, amount numeric, commission numeric)
  GROUP BY 1, 2;
END $$;--> statement-breakpoint
-- The deltas added into the totals (the job; one at a time).
CREATE OR REPLACE FUNCTION crm_deal_totals_fold() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- One fold at a time; another already folding does it (never waited for: a wait shows as the app's own).
  IF NOT pg_try_advisory_xact_lock(7275065) THEN RETURN; END IF;
  WITH d AS (DELETE FROM public.deal_total_deltas RETURNING *)
  INSERT INTO public.deal_totals AS t (deal_type, deal_stage, n, amounts, amount, commission)
  SELECT deal_type, deal_stage, sum(n), sum(amounts), sum(amount), sum(commission) FROM d GROUP BY 1, 2
  ON CONFLICT (deal_type, deal_stage) DO UPDATE SET n = t.n + excluded.n, amounts = t.amounts + excluded.amounts,
    amount = t.amount + excluded.amount, commission = t.commission + excluded.commission;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_deal_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lines jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_object('deal_type', n.deal_type, 'deal_stage', n.deal_stage, 'sign', 1, 'amount', coalesce(n.price, n.asking_price), 'commission', n.commission)) INTO lines FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_build_object('deal_type', o.deal_type, 'deal_stage', o.deal_stage, 'sign', -1, 'amount', coalesce(o.price, o.asking_price), 'commission', o.commission)) INTO lines FROM old_rows o;
  ELSE
    SELECT jsonb_agg(x.line) INTO lines FROM (
      SELECT jsonb_build_object('deal_type', o.deal_type, 'deal_stage', o.deal_stage, 'sign', -1, 'amount', coalesce(o.price, o.asking_price), 'commission', o.commission) AS line
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.deal_type, n.deal_stage, n.price, n.asking_price, n.commission) IS DISTINCT FROM (o.deal_type, o.deal_stage, o.price, o.asking_price, o.commission)
      UNION ALL
      SELECT jsonb_build_object('deal_type', n.deal_type, 'deal_stage', n.deal_stage, 'sign', 1, 'amount', coalesce(n.price, n.asking_price), 'commission', n.commission)
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.deal_type, n.deal_stage, n.price, n.asking_price, n.commission) IS DISTINCT FROM (o.deal_type, o.deal_stage, o.price, o.asking_price, o.commission)) x;
  END IF;
  IF lines IS NOT NULL THEN PERFORM public.crm_deal_totals_add(lines); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_deal_totals_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7275065);
  DELETE FROM public.deal_total_deltas;
  DELETE FROM public.deal_totals;
  INSERT INTO public.deal_totals (deal_type, deal_stage, n, amounts, amount, commission)
  SELECT deal_type, deal_stage, count(*), count(coalesce(price, asking_price)), coalesce(sum(coalesce(price, asking_price)), 0), coalesce(sum(commission), 0)
  FROM public.deals GROUP BY 1, 2;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_deal_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM public.deal_total_deltas;
  DELETE FROM public.deal_totals;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER deals_totals_ins AFTER INSERT ON deals REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_deal_totals_changed();--> statement-breakpoint
CREATE TRIGGER deals_totals_upd AFTER UPDATE ON deals REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_deal_totals_changed();--> statement-breakpoint
CREATE TRIGGER deals_totals_del AFTER DELETE ON deals REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_deal_totals_changed();--> statement-breakpoint
CREATE TRIGGER deals_totals_truncate AFTER TRUNCATE ON deals FOR EACH STATEMENT EXECUTE FUNCTION crm_deal_totals_truncate();--> statement-breakpoint
SELECT crm_deal_totals_rebuild();
--> statement-breakpoint
-- The board's answer is kept while nothing it shows changes (decision 072): its deals and their parties are counted as changed too.
CREATE TRIGGER deals_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON deals FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER deal_parties_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON deal_parties FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
