-- The bookings list's count and footer sums kept per month (decision 101): "this year by check-out",
-- the list's default, summed 12,000 bookings' five amounts on every request (12-20 ms of PostgreSQL
-- at full size). Kept per date (0 booking, 1 check-in, 2 check-out: the list's date filters), month
-- and stage, as deal_totals is (0067): statement triggers write a change's difference to
-- reservation_total_deltas (inserts only: a save never waits for another's totals), the job
-- reservations.totalsFold adds them into reservation_totals every minute, and readers read both.
-- A booking without a booking date is in no month of that date. An update that changes no date,
-- stage or amount writes nothing.
CREATE TABLE "reservation_totals" (
	"kind" smallint NOT NULL,
	"month" date NOT NULL,
	"stage" smallint NOT NULL,
	"n" bigint NOT NULL,
	"total" numeric NOT NULL,
	"payment_to_owner" numeric NOT NULL,
	"comission" numeric NOT NULL,
	"comission3rd_party" numeric NOT NULL,
	"final_comission" numeric NOT NULL,
	CONSTRAINT "reservation_totals_pk" PRIMARY KEY("kind","month","stage")
);--> statement-breakpoint
CREATE TABLE "reservation_total_deltas" (
	"kind" smallint NOT NULL,
	"month" date NOT NULL,
	"stage" smallint NOT NULL,
	"n" bigint NOT NULL,
	"total" numeric NOT NULL,
	"payment_to_owner" numeric NOT NULL,
	"comission" numeric NOT NULL,
	"comission3rd_party" numeric NOT NULL,
	"final_comission" numeric NOT NULL
);--> statement-breakpoint
CREATE INDEX "reservation_total_deltas_idx" ON "reservation_total_deltas" USING btree ("kind","month");--> statement-breakpoint
-- The lines of a set of bookings (a sign each: -1 gone, 1 come), grouped by date kind, month and stage.
CREATE OR REPLACE FUNCTION crm_reservation_total_lines(rows_ jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO public.reservation_total_deltas (kind, month, stage, n, total, payment_to_owner, comission, comission3rd_party, final_comission)
  SELECT k.kind, date_trunc('month', k.day)::date, x.reservation_stage, sum(x.sign), coalesce(sum(x.sign * x.total), 0), coalesce(sum(x.sign * x.payment_to_owner), 0),
    coalesce(sum(x.sign * x.comission), 0), coalesce(sum(x.sign * x.comission3rd_party), 0), coalesce(sum(x.sign * x.final_comission), 0)
  FROM jsonb_to_recordset(rows_) AS x(sign int, reservation_stage smallint, booking_date date, check_in date, check_out date, total numeric,
    payment_to_owner numeric, comission numeric, comission3rd_party numeric, final_comission numeric)
  CROSS JOIN LATERAL (VALUES (0::smallint, x.booking_date), (1::smallint, x.check_in), (2::smallint, x.check_out)) AS k(kind, day)
  WHERE k.day IS NOT NULL
  GROUP BY 1, 2, 3
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_reservation_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lines jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(to_jsonb(n) || '{"sign": 1}') INTO lines FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(to_jsonb(o) || '{"sign": -1}') INTO lines FROM old_rows o;
  ELSE
    SELECT jsonb_agg(x.line) INTO lines FROM (
      SELECT to_jsonb(o) || '{"sign": -1}' AS line FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.reservation_stage, n.booking_date, n.check_in, n.check_out, n.total, n.payment_to_owner, n.comission, n.comission3rd_party)
        IS DISTINCT FROM (o.reservation_stage, o.booking_date, o.check_in, o.check_out, o.total, o.payment_to_owner, o.comission, o.comission3rd_party)
      UNION ALL
      SELECT to_jsonb(n) || '{"sign": 1}' FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.reservation_stage, n.booking_date, n.check_in, n.check_out, n.total, n.payment_to_owner, n.comission, n.comission3rd_party)
        IS DISTINCT FROM (o.reservation_stage, o.booking_date, o.check_in, o.check_out, o.total, o.payment_to_owner, o.comission, o.comission3rd_party)) x;
  END IF;
  IF lines IS NOT NULL THEN PERFORM public.crm_reservation_total_lines(lines); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The deltas added into the totals (the job; one at a time).
CREATE OR REPLACE FUNCTION crm_reservation_totals_fold() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(7275106) THEN RETURN; END IF;
  WITH d AS (DELETE FROM public.reservation_total_deltas RETURNING *)
  INSERT INTO public.reservation_totals AS t (kind, month, stage, n, total, payment_to_owner, comission, comission3rd_party, final_comission)
  SELECT kind, month, stage, sum(n), sum(total), sum(payment_to_owner), sum(comission), sum(comission3rd_party), sum(final_comission) FROM d GROUP BY 1, 2, 3
  ON CONFLICT (kind, month, stage) DO UPDATE SET n = t.n + excluded.n, total = t.total + excluded.total, payment_to_owner = t.payment_to_owner + excluded.payment_to_owner,
    comission = t.comission + excluded.comission, comission3rd_party = t.comission3rd_party + excluded.comission3rd_party, final_comission = t.final_comission + excluded.final_comission;
  DELETE FROM public.reservation_totals WHERE n = 0;
END $$;--> statement-breakpoint
-- Counted whole from the bookings (the migration; the bench generator's load without triggers).
-- The bookings are share-locked first (no change of one between the deltas' deletion and the count),
-- then the fold's lock: the order a truncate of the bookings takes the two in.
CREATE OR REPLACE FUNCTION crm_reservation_totals_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE public.reservations IN SHARE MODE;
  PERFORM pg_advisory_xact_lock(7275106);
  DELETE FROM public.reservation_total_deltas;
  DELETE FROM public.reservation_totals;
  INSERT INTO public.reservation_totals (kind, month, stage, n, total, payment_to_owner, comission, comission3rd_party, final_comission)
  SELECT k.kind, date_trunc('month', k.day)::date, r.reservation_stage, count(*), coalesce(sum(r.total), 0), coalesce(sum(r.payment_to_owner), 0),
    coalesce(sum(r.comission), 0), coalesce(sum(r.comission3rd_party), 0), coalesce(sum(r.final_comission), 0)
  FROM public.reservations r
  CROSS JOIN LATERAL (VALUES (0::smallint, r.booking_date), (1::smallint, r.check_in), (2::smallint, r.check_out)) AS k(kind, day)
  WHERE k.day IS NOT NULL
  GROUP BY 1, 2, 3;
END $$;--> statement-breakpoint
-- The bookings truncated: a fold under way is waited for (its lock), so nothing it adds outlives the truncate.
CREATE OR REPLACE FUNCTION crm_reservation_totals_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7275106);
  DELETE FROM public.reservation_total_deltas;
  DELETE FROM public.reservation_totals;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER reservations_totals_ins AFTER INSERT ON reservations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_reservation_totals_changed();--> statement-breakpoint
CREATE TRIGGER reservations_totals_upd AFTER UPDATE ON reservations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_reservation_totals_changed();--> statement-breakpoint
CREATE TRIGGER reservations_totals_del AFTER DELETE ON reservations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_reservation_totals_changed();--> statement-breakpoint
CREATE TRIGGER reservations_totals_truncate AFTER TRUNCATE ON reservations FOR EACH STATEMENT EXECUTE FUNCTION crm_reservation_totals_truncate();--> statement-breakpoint
SELECT crm_reservation_totals_rebuild();
