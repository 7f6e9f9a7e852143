-- The calendar's days kept ahead of time (decision 114). A week of everyone's viewings, to-dos and
-- check-ins and check-outs cost 15-19 ms of CPU made on the spot at full size (600-2,600 rows read
-- by their keys, the viewings' statement planned each time, the entries made and checked in the
-- app). Each day's entries are kept here as the answer's JSON, one row a day, language and with or
-- without the stays, and a week is read back as seven rows.
-- A day's entries are right while its mark has not moved since they were made: every statement
-- that changes what a day shows moves the marks of its days in the changing transaction (the
-- triggers below), and a kept day is read back only when its mark, and the mark of every day (the
-- places' names), are the ones it was made under. No foreign keys: a kept day is only a copy.
CREATE TABLE "calendar_day_marks" (
	"day" date PRIMARY KEY NOT NULL,
	"gen" bigint NOT NULL
);--> statement-breakpoint
CREATE TABLE "calendar_all_marks" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("id" = 1),
	"gen" bigint NOT NULL
);--> statement-breakpoint
INSERT INTO "calendar_all_marks" ("id", "gen") VALUES (1, 0);--> statement-breakpoint
CREATE TABLE "calendar_days" (
	"day" date NOT NULL,
	"culture" text NOT NULL,
	"stays" boolean NOT NULL,
	"gen" bigint NOT NULL,
	"all_gen" bigint NOT NULL,
	"texts" text NOT NULL,
	"counts" integer[] NOT NULL,
	"items" text NOT NULL,
	"made_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_days_pk" PRIMARY KEY("day","culture","stays")
);--> statement-breakpoint
-- The days a moment can fall on in the agency's time zone (any zone from 12 hours behind UTC to
-- 14 ahead): the two or three UTC days from 12 hours before it to 14 after; marking a day too many
-- costs only its making again.
CREATE OR REPLACE FUNCTION crm_calendar_days_of(at timestamptz) RETURNS date[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN at IS NULL THEN '{}'::date[] ELSE array(SELECT d::date FROM generate_series(((at AT TIME ZONE 'UTC') - interval '12 hours')::date,
    ((at AT TIME ZONE 'UTC') + interval '14 hours')::date, interval '1 day') d) END
$$;--> statement-breakpoint
-- Moves the marks of the days given (in the days' order, so two transactions take them alike).
CREATE OR REPLACE FUNCTION crm_calendar_mark(days date[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO public.calendar_day_marks (day, gen)
  SELECT DISTINCT d, 1 FROM unnest(days) d WHERE d IS NOT NULL ORDER BY 1
  ON CONFLICT (day) DO UPDATE SET gen = public.calendar_day_marks.gen + 1
$$;--> statement-breakpoint
-- Viewings: their days before and after.
CREATE OR REPLACE FUNCTION crm_calendar_viewings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM public.crm_calendar_mark(array(SELECT unnest(public.crm_calendar_days_of(o.date_of_viewing)) FROM old_rows o));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM public.crm_calendar_mark(array(SELECT unnest(public.crm_calendar_days_of(n.date_of_viewing)) FROM new_rows n));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A viewing's properties and agents: the viewing's days.
CREATE OR REPLACE FUNCTION crm_calendar_viewing_parts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids int[] := '{}';
BEGIN
  IF TG_TABLE_NAME = 'assignments' THEN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN ids := ids || array(SELECT o.parent_id FROM old_rows o WHERE o.parent = 3); END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN ids := ids || array(SELECT n.parent_id FROM new_rows n WHERE n.parent = 3); END IF;
  ELSE
    IF TG_OP IN ('UPDATE', 'DELETE') THEN ids := ids || array(SELECT o.viewing_id FROM old_rows o); END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN ids := ids || array(SELECT n.viewing_id FROM new_rows n); END IF;
  END IF;
  IF cardinality(ids) > 0 THEN
    PERFORM public.crm_calendar_mark(array(SELECT unnest(public.crm_calendar_days_of(v.date_of_viewing)) FROM public.viewings v WHERE v.id = any(ids)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- To-dos: the days of the open ones before and after (a done one is on no day).
CREATE OR REPLACE FUNCTION crm_calendar_activities_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM public.crm_calendar_mark(array(SELECT unnest(public.crm_calendar_days_of(o.date)) FROM old_rows o WHERE o.done = false));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM public.crm_calendar_mark(array(SELECT unnest(public.crm_calendar_days_of(n.date)) FROM new_rows n WHERE n.done = false));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A to-do's links (its first one is where it leads): the to-do's days.
CREATE OR REPLACE FUNCTION crm_calendar_activity_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids int[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN ids := ids || array(SELECT o.activity_id FROM old_rows o); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN ids := ids || array(SELECT n.activity_id FROM new_rows n); END IF;
  IF cardinality(ids) > 0 THEN
    PERFORM public.crm_calendar_mark(array(SELECT unnest(public.crm_calendar_days_of(a.date)) FROM public.activities a WHERE a.id = any(ids) AND a.done = false));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Stays: their check-in and check-out days before and after (kept as days, no time zone).
CREATE OR REPLACE FUNCTION crm_calendar_reservations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM public.crm_calendar_mark(array(SELECT o.check_in FROM old_rows o UNION ALL SELECT o.check_out FROM old_rows o));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM public.crm_calendar_mark(array(SELECT n.check_in FROM new_rows n UNION ALL SELECT n.check_out FROM new_rows n));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A lead given to another client: the days of its viewings (whose client it names).
CREATE OR REPLACE FUNCTION crm_calendar_leads_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids int[];
BEGIN
  ids := array(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.account_id IS DISTINCT FROM n.account_id);
  IF cardinality(ids) > 0 THEN
    PERFORM public.crm_calendar_mark(array(SELECT unnest(public.crm_calendar_days_of(v.date_of_viewing)) FROM public.viewings v WHERE v.demand_id = any(ids)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- An account renamed or its phones changed: the days of its viewings as the client, as an agent,
-- and of the open to-dos assigned to it.
CREATE OR REPLACE FUNCTION crm_calendar_accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids int[];
BEGIN
  ids := array(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE o.display_name IS DISTINCT FROM n.display_name OR o.phones IS DISTINCT FROM n.phones);
  IF cardinality(ids) > 0 THEN
    PERFORM public.crm_calendar_mark(array(
      SELECT unnest(public.crm_calendar_days_of(v.date_of_viewing)) FROM public.leads l JOIN public.viewings v ON v.demand_id = l.id WHERE l.account_id = any(ids)
      UNION ALL
      SELECT unnest(public.crm_calendar_days_of(v.date_of_viewing)) FROM public.assignments s JOIN public.viewings v ON v.id = s.parent_id WHERE s.parent = 3 AND s.account_id = any(ids)
      UNION ALL
      SELECT unnest(public.crm_calendar_days_of(a.date)) FROM public.activities a WHERE a.assigned_to = any(ids) AND a.done = false AND a.date IS NOT NULL));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A property's reference number, address, place or website code changed: the days of its viewings
-- and of its stays' check-ins and check-outs.
CREATE OR REPLACE FUNCTION crm_calendar_objects_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids int[];
BEGIN
  ids := array(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE o.reference_number IS DISTINCT FROM n.reference_number OR o.address IS DISTINCT FROM n.address
      OR o.location_id IS DISTINCT FROM n.location_id OR o.website_code IS DISTINCT FROM n.website_code);
  IF cardinality(ids) > 0 THEN
    PERFORM public.crm_calendar_mark(array(
      SELECT unnest(public.crm_calendar_days_of(v.date_of_viewing)) FROM public.viewing_objects vo JOIN public.viewings v ON v.id = vo.viewing_id WHERE vo.object_id = any(ids)
      UNION ALL
      SELECT r.check_in FROM public.reservations r WHERE r.object_id = any(ids)
      UNION ALL
      SELECT r.check_out FROM public.reservations r WHERE r.object_id = any(ids)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A table emptied: every day.
CREATE OR REPLACE FUNCTION crm_calendar_all_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE public.calendar_all_marks SET gen = gen + 1 WHERE id = 1;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A place renamed (in a viewing's addresses): every day. A place added is named by no property
-- yet; one removed is taken off its properties first (their trigger).
CREATE OR REPLACE FUNCTION crm_calendar_locations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE o.text_en IS DISTINCT FROM n.text_en OR o.text_el IS DISTINCT FROM n.text_el OR o.text_ru IS DISTINCT FROM n.text_ru) THEN
    UPDATE public.calendar_all_marks SET gen = gen + 1 WHERE id = 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER viewings_calendar_ins AFTER INSERT ON viewings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewings_changed();--> statement-breakpoint
CREATE TRIGGER viewings_calendar_upd AFTER UPDATE ON viewings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewings_changed();--> statement-breakpoint
CREATE TRIGGER viewings_calendar_del AFTER DELETE ON viewings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewings_changed();--> statement-breakpoint
CREATE TRIGGER viewing_objects_calendar_ins AFTER INSERT ON viewing_objects REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewing_parts_changed();--> statement-breakpoint
CREATE TRIGGER viewing_objects_calendar_upd AFTER UPDATE ON viewing_objects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewing_parts_changed();--> statement-breakpoint
CREATE TRIGGER viewing_objects_calendar_del AFTER DELETE ON viewing_objects REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewing_parts_changed();--> statement-breakpoint
CREATE TRIGGER assignments_calendar_ins AFTER INSERT ON assignments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewing_parts_changed();--> statement-breakpoint
CREATE TRIGGER assignments_calendar_upd AFTER UPDATE ON assignments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewing_parts_changed();--> statement-breakpoint
CREATE TRIGGER assignments_calendar_del AFTER DELETE ON assignments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_viewing_parts_changed();--> statement-breakpoint
CREATE TRIGGER activities_calendar_ins AFTER INSERT ON activities REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_activities_changed();--> statement-breakpoint
CREATE TRIGGER activities_calendar_upd AFTER UPDATE ON activities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_activities_changed();--> statement-breakpoint
CREATE TRIGGER activities_calendar_del AFTER DELETE ON activities REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_activities_changed();--> statement-breakpoint
CREATE TRIGGER activity_links_calendar_ins AFTER INSERT ON activity_links REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_activity_links_changed();--> statement-breakpoint
CREATE TRIGGER activity_links_calendar_upd AFTER UPDATE ON activity_links REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_activity_links_changed();--> statement-breakpoint
CREATE TRIGGER activity_links_calendar_del AFTER DELETE ON activity_links REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_activity_links_changed();--> statement-breakpoint
CREATE TRIGGER reservations_calendar_ins AFTER INSERT ON reservations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_reservations_changed();--> statement-breakpoint
CREATE TRIGGER reservations_calendar_upd AFTER UPDATE ON reservations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_reservations_changed();--> statement-breakpoint
CREATE TRIGGER reservations_calendar_del AFTER DELETE ON reservations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_reservations_changed();--> statement-breakpoint
CREATE TRIGGER leads_calendar_upd AFTER UPDATE ON leads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_leads_changed();--> statement-breakpoint
CREATE TRIGGER accounts_calendar_upd AFTER UPDATE ON accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_accounts_changed();--> statement-breakpoint
CREATE TRIGGER objects_calendar_upd AFTER UPDATE ON objects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_objects_changed();--> statement-breakpoint
CREATE TRIGGER locations_calendar_upd AFTER UPDATE ON locations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_locations_changed();--> statement-breakpoint
CREATE TRIGGER locations_calendar_trunc AFTER TRUNCATE ON locations FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER viewings_calendar_trunc AFTER TRUNCATE ON viewings FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER viewing_objects_calendar_trunc AFTER TRUNCATE ON viewing_objects FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER assignments_calendar_trunc AFTER TRUNCATE ON assignments FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER activities_calendar_trunc AFTER TRUNCATE ON activities FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER activity_links_calendar_trunc AFTER TRUNCATE ON activity_links FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER reservations_calendar_trunc AFTER TRUNCATE ON reservations FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER leads_calendar_trunc AFTER TRUNCATE ON leads FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER accounts_calendar_trunc AFTER TRUNCATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();--> statement-breakpoint
CREATE TRIGGER objects_calendar_trunc AFTER TRUNCATE ON objects FOR EACH STATEMENT EXECUTE FUNCTION crm_calendar_all_changed();

