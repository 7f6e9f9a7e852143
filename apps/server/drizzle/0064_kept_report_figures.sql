-- The agents' results kept (decision 071): what each record counts for (a property taken on, a
-- viewing held, a lead started, a deal closed) as one line per record, with its day and its agents,
-- and the lines added up per day and per month and per set of agents (report_cells). A year's
-- report reads a few thousand cells instead of scoring 15,000 properties, 6,500 viewings and 4,400
-- deals with their agents (33 ms of PostgreSQL at full size). The agents' rows and the totals are
-- the cells' sums: an agent's row of the cells whose set holds them, the totals once per cell whose
-- set holds any agent shown, as the report counts a record shared by two agents once.
-- Kept by statement triggers in the changing transaction (a few records a statement): a change
-- writes its record's line (one row a record, under a lock of that record, so that two changes of
-- one record are counted one after the other) and adds what it moves to report_cell_deltas, which
-- nothing ever updates (no change waits for another's cells); the job reports.fold adds the deltas
-- into report_cells every minute, and the report reads both.
CREATE TABLE "report_lines" (
	"kind" smallint NOT NULL,
	"record_id" integer NOT NULL,
	"day" date NOT NULL,
	"agents" integer[] NOT NULL,
	"n" integer NOT NULL,
	"offers" integer NOT NULL,
	"sales" integer NOT NULL,
	"sales_value" numeric NOT NULL,
	"sales_commission" numeric NOT NULL,
	"rentals" integer NOT NULL,
	"rentals_value" numeric NOT NULL,
	"rentals_commission" numeric NOT NULL,
	CONSTRAINT "report_lines_kind_record_id_pk" PRIMARY KEY("kind","record_id")
);--> statement-breakpoint
CREATE TABLE "report_cells" (
	"grain" smallint NOT NULL,
	"start" date NOT NULL,
	"kind" smallint NOT NULL,
	"agents" integer[] NOT NULL,
	"records" integer NOT NULL,
	"n" integer NOT NULL,
	"offers" integer NOT NULL,
	"sales" integer NOT NULL,
	"sales_value" numeric NOT NULL,
	"sales_commission" numeric NOT NULL,
	"rentals" integer NOT NULL,
	"rentals_value" numeric NOT NULL,
	"rentals_commission" numeric NOT NULL,
	CONSTRAINT "report_cells_grain_start_kind_agents_pk" PRIMARY KEY("grain","start","kind","agents")
);--> statement-breakpoint
CREATE TABLE "report_cell_deltas" (
	"grain" smallint NOT NULL,
	"start" date NOT NULL,
	"kind" smallint NOT NULL,
	"agents" integer[] NOT NULL,
	"records" integer NOT NULL,
	"n" integer NOT NULL,
	"offers" integer NOT NULL,
	"sales" integer NOT NULL,
	"sales_value" numeric NOT NULL,
	"sales_commission" numeric NOT NULL,
	"rentals" integer NOT NULL,
	"rentals_value" numeric NOT NULL,
	"rentals_commission" numeric NOT NULL
);--> statement-breakpoint
CREATE INDEX "report_cell_deltas_start_idx" ON "report_cell_deltas" USING btree ("grain","start");--> statement-breakpoint
CREATE INDEX "report_cells_empty_idx" ON "report_cells" USING btree ("grain","start") WHERE "records" = 0;--> statement-breakpoint
-- A cell's first day in each grain: 1 the day, 2 its month, 3 its year, 4 its tenth of a month
-- (the 1st, the 11th or the 21st: a typed range's edges are read by tenths and a few days).
CREATE OR REPLACE FUNCTION crm_report_grain_start(grain smallint, day date) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE grain
    WHEN 1 THEN day
    WHEN 2 THEN day - (extract(day FROM day)::int - 1)
    WHEN 3 THEN make_date(extract(year FROM day)::int, 1, 1)
    ELSE day - (extract(day FROM day)::int - 1) + (least(2, (extract(day FROM day)::int - 1) / 10) * 10) END
$$;--> statement-breakpoint
-- The time zone whose days the lines are in (a property's or a viewing's moment falls on the agency's
-- day): the app writes its TIME_ZONE here at start (crm_report_zone), and a new one makes every line again.
CREATE TABLE "report_zone" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"zone" text NOT NULL,
	CONSTRAINT "report_zone_one_row" CHECK ("report_zone"."id" = 1)
);--> statement-breakpoint
INSERT INTO report_zone (id, zone) VALUES (1, 'Europe/Athens');--> statement-breakpoint
-- The lines of records of one kind (1 property, 2 viewing, 3 lead, 4 deal), of `ids` (all when null),
-- as the report counts them (reports/results.service.ts, computeResults): a property by its creator
-- on the day it was entered; a viewing held or planned (results 1-5) by its assigned agents on its
-- day, an offer when its result is 4; a lead by its assigned agents on its start day (else the day it
-- was entered); a closed deal (stage 5) by its employees in charge (relation 6) on its end date, a
-- sale (type 2) or a rental (type 1) with its final price, else its asking price, and its commission.
-- A record without an agent, or not counted, has no line.
CREATE OR REPLACE FUNCTION crm_report_lines(k int, ids int[]) RETURNS TABLE (
  kind smallint, record_id int, day date, agents int[], n int, offers int, sales int, sales_value numeric, sales_commission numeric,
  rentals int, rentals_value numeric, rentals_commission numeric
) LANGUAGE plpgsql STABLE AS $$
DECLARE
  z text := (SELECT r.zone FROM public.report_zone r WHERE r.id = 1);
BEGIN
  IF k = 1 THEN
    RETURN QUERY SELECT 1::smallint, o.id, (o.created_on AT TIME ZONE z)::date, ARRAY[o.created_by_account_id], 1, 0, 0, 0::numeric, 0::numeric, 0, 0::numeric, 0::numeric
      FROM public.objects o WHERE (ids IS NULL OR o.id = ANY(ids)) AND o.created_by_account_id IS NOT NULL;
  ELSIF k = 2 THEN
    RETURN QUERY SELECT 2::smallint, v.id, (v.date_of_viewing AT TIME ZONE z)::date, a.agents, 1, (v.result = 4)::int, 0, 0::numeric, 0::numeric, 0, 0::numeric, 0::numeric
      FROM public.viewings v
      CROSS JOIN LATERAL (SELECT array_agg(s.account_id ORDER BY s.account_id) AS agents FROM public.assignments s WHERE s.parent = 3 AND s.parent_id = v.id) a
      WHERE (ids IS NULL OR v.id = ANY(ids)) AND v.date_of_viewing IS NOT NULL AND v.result IN (1, 2, 3, 4, 5) AND a.agents IS NOT NULL;
  ELSIF k = 3 THEN
    RETURN QUERY SELECT 3::smallint, l.id, coalesce(l.start_date, (l.created_on AT TIME ZONE z)::date), a.agents, 1, 0, 0, 0::numeric, 0::numeric, 0, 0::numeric, 0::numeric
      FROM public.leads l
      CROSS JOIN LATERAL (SELECT array_agg(s.account_id ORDER BY s.account_id) AS agents FROM public.assignments s WHERE s.parent = 2 AND s.parent_id = l.id) a
      WHERE (ids IS NULL OR l.id = ANY(ids)) AND a.agents IS NOT NULL;
  ELSIF k = 4 THEN
    RETURN QUERY SELECT 4::smallint, d.id, d.end_date, a.agents, 1, 0,
        (d.deal_type = 2)::int, CASE WHEN d.deal_type = 2 THEN coalesce(coalesce(d.price, d.asking_price), 0) ELSE 0 END::numeric,
        CASE WHEN d.deal_type = 2 THEN coalesce(d.commission, 0) ELSE 0 END::numeric,
        (d.deal_type = 1)::int, CASE WHEN d.deal_type = 1 THEN coalesce(coalesce(d.price, d.asking_price), 0) ELSE 0 END::numeric,
        CASE WHEN d.deal_type = 1 THEN coalesce(d.commission, 0) ELSE 0 END::numeric
      FROM public.deals d
      CROSS JOIN LATERAL (SELECT array_agg(p.account_id ORDER BY p.account_id) AS agents FROM public.deal_parties p WHERE p.deal_id = d.id AND p.relation = 6) a
      WHERE (ids IS NULL OR d.id = ANY(ids)) AND d.deal_stage = 5 AND d.end_date IS NOT NULL AND a.agents IS NOT NULL;
  END IF;
END $$;--> statement-breakpoint
-- Lines into or out of the cells (sign 1 or -1), by day and by month: written as deltas.
CREATE OR REPLACE FUNCTION crm_report_cells_add(lines jsonb, sign int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH l AS (
    SELECT * FROM jsonb_to_recordset(lines) AS x(kind smallint, day date, agents int[], n int, offers int, sales int, sales_value numeric,
      sales_commission numeric, rentals int, rentals_value numeric, rentals_commission numeric)
  )
  INSERT INTO public.report_cell_deltas (grain, start, kind, agents, records, n, offers, sales, sales_value, sales_commission, rentals, rentals_value, rentals_commission)
  SELECT g.grain, public.crm_report_grain_start(g.grain, l.day), l.kind, l.agents,
    sign * count(*), sign * sum(l.n), sign * sum(l.offers), sign * sum(l.sales), sign * sum(l.sales_value), sign * sum(l.sales_commission),
    sign * sum(l.rentals), sign * sum(l.rentals_value), sign * sum(l.rentals_commission)
  FROM l CROSS JOIN (VALUES (1::smallint), (2::smallint), (3::smallint), (4::smallint)) g(grain)
  GROUP BY 1, 2, 3, 4;
END $$;--> statement-breakpoint
-- The deltas added into the cells (the job reports.fold; one at a time), and the cells left with no record removed.
CREATE OR REPLACE FUNCTION crm_report_fold() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- One fold at a time; another already folding does it (never waited for: a wait shows as the app's own).
  IF NOT pg_try_advisory_xact_lock(7275062) THEN RETURN; END IF;
  WITH d AS (DELETE FROM public.report_cell_deltas RETURNING *)
  INSERT INTO public.report_cells AS c (grain, start, kind, agents, records, n, offers, sales, sales_value, sales_commission, rentals, rentals_value, rentals_commission)
  SELECT grain, start, kind, agents, sum(records), sum(n), sum(offers), sum(sales), sum(sales_value), sum(sales_commission), sum(rentals), sum(rentals_value), sum(rentals_commission)
  FROM d GROUP BY 1, 2, 3, 4
  ON CONFLICT (grain, start, kind, agents) DO UPDATE SET records = c.records + excluded.records, n = c.n + excluded.n, offers = c.offers + excluded.offers,
    sales = c.sales + excluded.sales, sales_value = c.sales_value + excluded.sales_value, sales_commission = c.sales_commission + excluded.sales_commission,
    rentals = c.rentals + excluded.rentals, rentals_value = c.rentals_value + excluded.rentals_value, rentals_commission = c.rentals_commission + excluded.rentals_commission;
  DELETE FROM public.report_cells WHERE records = 0;
END $$;--> statement-breakpoint
-- The records `ids` of kind `k` counted again: their old lines out of the cells, their new ones in.
CREATE OR REPLACE FUNCTION crm_report_refresh(k int, ids int[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old_lines jsonb;
  new_lines jsonb;
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  -- One change of a record at a time (a viewing's two agents added at once by two people): the
  -- second waits here, then reads the first's line and the records as they are after it.
  PERFORM pg_advisory_xact_lock(7275060 + k, x) FROM (SELECT DISTINCT unnest(ids) AS x ORDER BY 1) r;
  SELECT jsonb_agg(to_jsonb(r)) INTO new_lines FROM public.crm_report_lines(k, ids) r;
  WITH gone AS (DELETE FROM public.report_lines r WHERE r.kind = k AND r.record_id = ANY(ids) RETURNING r.*)
  SELECT jsonb_agg(to_jsonb(gone)) INTO old_lines FROM gone;
  IF old_lines IS NOT NULL THEN PERFORM public.crm_report_cells_add(old_lines, -1); END IF;
  IF new_lines IS NOT NULL THEN
    INSERT INTO public.report_lines SELECT * FROM jsonb_populate_recordset(NULL::public.report_lines, new_lines);
    PERFORM public.crm_report_cells_add(new_lines, 1);
  END IF;
END $$;--> statement-breakpoint
-- Every line and cell made again from the records (the migration, a new time zone, a bulk load that skipped the triggers).
CREATE OR REPLACE FUNCTION crm_report_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7275062);
  DELETE FROM public.report_lines;
  DELETE FROM public.report_cells;
  DELETE FROM public.report_cell_deltas;
  INSERT INTO public.report_lines SELECT * FROM public.crm_report_lines(1, NULL);
  INSERT INTO public.report_lines SELECT * FROM public.crm_report_lines(2, NULL);
  INSERT INTO public.report_lines SELECT * FROM public.crm_report_lines(3, NULL);
  INSERT INTO public.report_lines SELECT * FROM public.crm_report_lines(4, NULL);
  INSERT INTO public.report_cells (grain, start, kind, agents, records, n, offers, sales, sales_value, sales_commission, rentals, rentals_value, rentals_commission)
  SELECT g.grain, public.crm_report_grain_start(g.grain, l.day), l.kind, l.agents,
    count(*), sum(l.n), sum(l.offers), sum(l.sales), sum(l.sales_value), sum(l.sales_commission), sum(l.rentals), sum(l.rentals_value), sum(l.rentals_commission)
  FROM public.report_lines l CROSS JOIN (VALUES (1::smallint), (2::smallint), (3::smallint), (4::smallint)) g(grain)
  GROUP BY 1, 2, 3, 4;
END $$;--> statement-breakpoint
-- The app's time zone, at each start: the lines made again only when it is another than theirs.
CREATE OR REPLACE FUNCTION crm_report_zone(z text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM public.report_zone WHERE id = 1 AND zone = z;
  IF FOUND THEN RETURN false; END IF;
  UPDATE public.report_zone SET zone = z WHERE id = 1;
  PERFORM public.crm_report_rebuild();
  RETURN true;
END $$;--> statement-breakpoint
-- The triggers: which records a statement changed, of the kinds the report counts.
CREATE OR REPLACE FUNCTION crm_report_objects_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM public.crm_report_refresh(1, (SELECT array_agg(n.id) FROM new_rows n WHERE n.created_by_account_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM public.crm_report_refresh(1, (SELECT array_agg(o.id) FROM old_rows o WHERE o.created_by_account_id IS NOT NULL));
  ELSE
    PERFORM public.crm_report_refresh(1, (SELECT array_agg(n.id) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.created_on, n.created_by_account_id) IS DISTINCT FROM (o.created_on, o.created_by_account_id)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_report_viewings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM public.crm_report_refresh(2, (SELECT array_agg(n.id) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM public.crm_report_refresh(2, (SELECT array_agg(o.id) FROM old_rows o));
  ELSE
    PERFORM public.crm_report_refresh(2, (SELECT array_agg(n.id) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.date_of_viewing, n.result) IS DISTINCT FROM (o.date_of_viewing, o.result)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_report_leads_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM public.crm_report_refresh(3, (SELECT array_agg(n.id) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM public.crm_report_refresh(3, (SELECT array_agg(o.id) FROM old_rows o));
  ELSE
    PERFORM public.crm_report_refresh(3, (SELECT array_agg(n.id) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.start_date, n.created_on) IS DISTINCT FROM (o.start_date, o.created_on)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_report_deals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM public.crm_report_refresh(4, (SELECT array_agg(n.id) FROM new_rows n WHERE n.deal_stage = 5));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM public.crm_report_refresh(4, (SELECT array_agg(o.id) FROM old_rows o WHERE o.deal_stage = 5));
  ELSE
    PERFORM public.crm_report_refresh(4, (SELECT array_agg(n.id) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.deal_stage = 5 OR o.deal_stage = 5)
        AND (n.deal_stage, n.end_date, n.deal_type, n.price, n.asking_price, n.commission) IS DISTINCT FROM (o.deal_stage, o.end_date, o.deal_type, o.price, o.asking_price, o.commission)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Who is assigned (a lead: parent 2, a viewing: parent 3) and a deal's employees in charge (relation 6).
CREATE OR REPLACE FUNCTION crm_report_assignments_refresh(rows_changed jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  touched record;
BEGIN
  FOR touched IN
    SELECT x.parent, array_agg(DISTINCT x.parent_id) AS ids FROM jsonb_to_recordset(rows_changed) AS x(parent smallint, parent_id int)
    WHERE x.parent IN (2, 3) GROUP BY x.parent
  LOOP
    PERFORM public.crm_report_refresh(CASE touched.parent WHEN 3 THEN 2 ELSE 3 END, touched.ids);
  END LOOP;
END $$;--> statement-breakpoint
-- (A transition table exists only for the operations that have it: each is read in its own branch.)
CREATE OR REPLACE FUNCTION crm_report_assignments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM public.crm_report_assignments_refresh((SELECT jsonb_agg(jsonb_build_object('parent', n.parent, 'parent_id', n.parent_id)) FROM new_rows n WHERE n.parent IN (2, 3)));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM public.crm_report_assignments_refresh((SELECT jsonb_agg(jsonb_build_object('parent', o.parent, 'parent_id', o.parent_id)) FROM old_rows o WHERE o.parent IN (2, 3)));
  ELSE
    PERFORM public.crm_report_assignments_refresh((SELECT jsonb_agg(jsonb_build_object('parent', x.parent, 'parent_id', x.parent_id)) FROM (
      SELECT n.parent, n.parent_id FROM new_rows n WHERE n.parent IN (2, 3) UNION SELECT o.parent, o.parent_id FROM old_rows o WHERE o.parent IN (2, 3)) x));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_report_deal_parties_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM public.crm_report_refresh(4, (SELECT array_agg(DISTINCT n.deal_id) FROM new_rows n WHERE n.relation = 6));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM public.crm_report_refresh(4, (SELECT array_agg(DISTINCT o.deal_id) FROM old_rows o WHERE o.relation = 6));
  ELSE
    PERFORM public.crm_report_refresh(4, (SELECT array_agg(DISTINCT x.deal_id) FROM (
      SELECT n.deal_id FROM new_rows n WHERE n.relation = 6 UNION SELECT o.deal_id FROM old_rows o WHERE o.relation = 6) x));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER objects_report_ins AFTER INSERT ON objects REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_objects_changed();--> statement-breakpoint
CREATE TRIGGER objects_report_upd AFTER UPDATE ON objects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_objects_changed();--> statement-breakpoint
CREATE TRIGGER objects_report_del AFTER DELETE ON objects REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_objects_changed();--> statement-breakpoint
CREATE TRIGGER viewings_report_ins AFTER INSERT ON viewings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_viewings_changed();--> statement-breakpoint
CREATE TRIGGER viewings_report_upd AFTER UPDATE ON viewings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_viewings_changed();--> statement-breakpoint
CREATE TRIGGER viewings_report_del AFTER DELETE ON viewings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_viewings_changed();--> statement-breakpoint
CREATE TRIGGER leads_report_ins AFTER INSERT ON leads REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_leads_changed();--> statement-breakpoint
CREATE TRIGGER leads_report_upd AFTER UPDATE ON leads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_leads_changed();--> statement-breakpoint
CREATE TRIGGER leads_report_del AFTER DELETE ON leads REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_leads_changed();--> statement-breakpoint
CREATE TRIGGER deals_report_ins AFTER INSERT ON deals REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_deals_changed();--> statement-breakpoint
CREATE TRIGGER deals_report_upd AFTER UPDATE ON deals REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_deals_changed();--> statement-breakpoint
CREATE TRIGGER deals_report_del AFTER DELETE ON deals REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_deals_changed();--> statement-breakpoint
CREATE TRIGGER assignments_report_ins AFTER INSERT ON assignments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_assignments_changed();--> statement-breakpoint
CREATE TRIGGER assignments_report_upd AFTER UPDATE ON assignments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_assignments_changed();--> statement-breakpoint
CREATE TRIGGER assignments_report_del AFTER DELETE ON assignments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_assignments_changed();--> statement-breakpoint
CREATE TRIGGER deal_parties_report_ins AFTER INSERT ON deal_parties REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_deal_parties_changed();--> statement-breakpoint
CREATE TRIGGER deal_parties_report_upd AFTER UPDATE ON deal_parties REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_deal_parties_changed();--> statement-breakpoint
CREATE TRIGGER deal_parties_report_del AFTER DELETE ON deal_parties REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_report_deal_parties_changed();--> statement-breakpoint
SELECT crm_report_rebuild();
