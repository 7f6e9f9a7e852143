-- Kept matches (decision 070): the best-fitting properties of each open lead whose matches were
-- looked at, and the best-fitting open leads of each property whose leads were looked at, in the
-- order they are shown. Scoring every candidate on the spot cost 15-50 ms of PostgreSQL a request
-- at full size (18,000 leads for a cheap flat in a broad place).
-- A property or a lead changed in what matching reads is written to match_changes by the triggers
-- below, in the changing transaction; the job matching.apply then brings the lists up to date, and
-- until it has, every reader scores the changed ones again on the spot (matching.ts).
-- No foreign keys: a lead or a property deleted is a change like any other, taken out of the lists
-- by the job. With cascades, deleting a lead while the job wrote its lists deadlocked (each waited
-- for the other's rows).
CREATE TABLE "lead_matches" (
	"lead_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"score" smallint NOT NULL,
	"modified_on" timestamp with time zone NOT NULL,
	CONSTRAINT "lead_matches_object_id_lead_id_pk" PRIMARY KEY("object_id","lead_id")
);--> statement-breakpoint
CREATE TABLE "lead_match_lists" (
	"lead_id" integer PRIMARY KEY NOT NULL,
	"complete" boolean NOT NULL,
	"made_on" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "object_matches" (
	"object_id" integer NOT NULL,
	"lead_id" integer NOT NULL,
	"score" smallint NOT NULL,
	"created_on" timestamp with time zone NOT NULL,
	CONSTRAINT "object_matches_lead_id_object_id_pk" PRIMARY KEY("lead_id","object_id")
);--> statement-breakpoint
CREATE TABLE "object_match_lists" (
	"object_id" integer PRIMARY KEY NOT NULL,
	"complete" boolean NOT NULL,
	"made_on" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "match_changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"kind" smallint NOT NULL,
	"id" integer NOT NULL
);--> statement-breakpoint
CREATE INDEX "lead_matches_order_idx" ON "lead_matches" USING btree ("lead_id","score" DESC NULLS LAST,"modified_on" DESC NULLS LAST,"object_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "object_matches_order_idx" ON "object_matches" USING btree ("object_id","score" DESC NULLS LAST,"created_on" DESC NULLS LAST,"lead_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "match_changes_kind_id_idx" ON "match_changes" USING btree ("kind","id");--> statement-breakpoint
-- A change is written with the job that applies it, so every way a property or a lead is changed
-- (a form, an import, a merge, a deal closing, SQL by hand) reaches the kept lists. Added only when
-- none is queued, and never as a singleton: an insert that met another transaction's queued job
-- (ON CONFLICT) waited for it, and two saves of properties then waited on each other.
CREATE OR REPLACE FUNCTION crm_match_changes_job() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM public.jobs WHERE name = 'matching.apply' AND state = 'queued') THEN
    INSERT INTO public.jobs (name) VALUES ('matching.apply');
  END IF;
  PERFORM pg_notify('crm_jobs', 'matching.apply');
END $$;--> statement-breakpoint
-- Properties: added, removed, or changed in anything the fit, the score or the order reads.
CREATE OR REPLACE FUNCTION crm_match_objects_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO public.match_changes (kind, id) SELECT 1, n.id FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO public.match_changes (kind, id) SELECT 1, o.id FROM old_rows o;
  ELSE
    INSERT INTO public.match_changes (kind, id)
    SELECT 1, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.sold, n.active, n.modified_on, n.for_sale, n.sale_price, n.for_rent, n.rent_price, n.for_short_rent, n.short_rent_price,
        n.location_id, n.object_sub_type_id, n.area, n.bedrooms,
        n.new_building, n.under_construction, n.new_development, n.unfinished, n.renovated, n.required_renovation, n.neoclassical, n.preserved,
        n.luxurious, n.penthouse, n.elevator, n.internal_staircase, n.attic, n.playroom, n.storage_space, n.disabled_access, n.air_condition,
        n.under_floor_heating, n.fireplace, n.solar_water_heating, n.night_power, n.double_glass, n.window_screens, n.alarm, n.secure_door,
        n.furnished, n.painted, n.bright, n.airy, n.balcony, n.awning, n.garden, n.swimming_pool, n.parking, n.view, n.sea_view,
        n.first_coast_line, n.facade, n.corner, n.buildable_land, n.student, n.pets_welcome, n.suitable_for_commercial_use,
        n.eligible_for_golden_visa, n.investment, n.our_project, n.no_agent_fee_for_buyer)
      IS DISTINCT FROM
      (o.sold, o.active, o.modified_on, o.for_sale, o.sale_price, o.for_rent, o.rent_price, o.for_short_rent, o.short_rent_price,
        o.location_id, o.object_sub_type_id, o.area, o.bedrooms,
        o.new_building, o.under_construction, o.new_development, o.unfinished, o.renovated, o.required_renovation, o.neoclassical, o.preserved,
        o.luxurious, o.penthouse, o.elevator, o.internal_staircase, o.attic, o.playroom, o.storage_space, o.disabled_access, o.air_condition,
        o.under_floor_heating, o.fireplace, o.solar_water_heating, o.night_power, o.double_glass, o.window_screens, o.alarm, o.secure_door,
        o.furnished, o.painted, o.bright, o.airy, o.balcony, o.awning, o.garden, o.swimming_pool, o.parking, o.view, o.sea_view,
        o.first_coast_line, o.facade, o.corner, o.buildable_land, o.student, o.pets_welcome, o.suitable_for_commercial_use,
        o.eligible_for_golden_visa, o.investment, o.our_project, o.no_agent_fee_for_buyer);
  END IF;
  IF FOUND THEN PERFORM public.crm_match_changes_job(); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Leads: added, removed, opened or closed, or changed in what they ask for or in their creation (the order).
CREATE OR REPLACE FUNCTION crm_match_leads_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO public.match_changes (kind, id) SELECT 2, n.id FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO public.match_changes (kind, id) SELECT 2, o.id FROM old_rows o;
  ELSE
    INSERT INTO public.match_changes (kind, id)
    SELECT 2, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.stage, n.created_on, n.for_purchase, n.purchase_budget_range_min, n.purchase_budget_range_max, n.for_rent, n.rent_budget_range_min,
        n.rent_budget_range_max, n.for_short_rent, n.short_rent_budget_range_min, n.short_rent_budget_range_max, n.location_id,
        n.object_sub_types, n.area_min, n.area_max, n.bedrooms_min, n.features)
      IS DISTINCT FROM
      (o.stage, o.created_on, o.for_purchase, o.purchase_budget_range_min, o.purchase_budget_range_max, o.for_rent, o.rent_budget_range_min,
        o.rent_budget_range_max, o.for_short_rent, o.short_rent_budget_range_min, o.short_rent_budget_range_max, o.location_id,
        o.object_sub_types, o.area_min, o.area_max, o.bedrooms_min, o.features);
  END IF;
  IF FOUND THEN PERFORM public.crm_match_changes_job(); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER objects_match_ins AFTER INSERT ON objects REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_match_objects_changed();--> statement-breakpoint
CREATE TRIGGER objects_match_upd AFTER UPDATE ON objects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_match_objects_changed();--> statement-breakpoint
CREATE TRIGGER objects_match_del AFTER DELETE ON objects REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_match_objects_changed();--> statement-breakpoint
CREATE TRIGGER leads_match_ins AFTER INSERT ON leads REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_match_leads_changed();--> statement-breakpoint
CREATE TRIGGER leads_match_upd AFTER UPDATE ON leads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_match_leads_changed();--> statement-breakpoint
CREATE TRIGGER leads_match_del AFTER DELETE ON leads REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_match_leads_changed();--> statement-breakpoint
-- The places are the seeded gazetteer; should one move or be renamed, every kept list is made again when next asked for.
CREATE OR REPLACE FUNCTION crm_match_lists_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE (n.path, n.parent_id, n.name_el) IS DISTINCT FROM (o.path, o.parent_id, o.name_el)) THEN
    DELETE FROM public.lead_match_lists;
    DELETE FROM public.lead_matches;
    DELETE FROM public.object_match_lists;
    DELETE FROM public.object_matches;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER locations_match_upd AFTER UPDATE ON locations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_match_lists_forget();
