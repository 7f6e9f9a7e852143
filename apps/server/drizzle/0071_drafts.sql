-- Drafts (decision 076): a property or a lead made by Add (the spec's add answers its id at once) is a
-- draft until someone fills it in, and a draft is in no list, count, search, match, report or feed.
-- It becomes an ordinary record, for good, when it is first saved with something in it (its version
-- moves; a lead given a client, a description or a service; a property asked to be published) or
-- when anything is attached to it (the triggers below, whoever writes those rows). The readers leave
-- drafts out by id (lib/drafts.ts): the few drafts' ids come from their partial index, so an index
-- that holds the id still answers a list's page alone, and a count is the count it was less the drafts
-- among it. A draft nobody filled is removed after a day (objects.pruneEmpty, leads.pruneEmpty).
ALTER TABLE "objects" ADD COLUMN "draft" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "draft" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "objects_draft_idx" ON "objects" USING btree ("id") WHERE "draft";--> statement-breakpoint
CREATE INDEX "leads_draft_idx" ON "leads" USING btree ("id") WHERE "draft";--> statement-breakpoint
-- Saved with something in it: no longer a draft.
CREATE OR REPLACE FUNCTION crm_objects_draft_saved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.version IS DISTINCT FROM OLD.version OR NEW.published IS TRUE OR NEW.publish_requested IS TRUE OR NEW.publish_error IS NOT NULL THEN
    NEW.draft := false;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER objects_draft_saved BEFORE UPDATE ON objects FOR EACH ROW WHEN (OLD.draft) EXECUTE FUNCTION crm_objects_draft_saved();--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_leads_draft_saved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.version IS DISTINCT FROM OLD.version OR NEW.account_id IS NOT NULL OR NEW.description IS NOT NULL
    OR NEW.for_purchase IS TRUE OR NEW.for_rent IS TRUE OR NEW.for_short_rent IS TRUE OR NEW.for_sell IS TRUE OR NEW.for_rent_out IS TRUE THEN
    NEW.draft := false;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER leads_draft_saved BEFORE UPDATE ON leads FOR EACH ROW WHEN (OLD.draft) EXECUTE FUNCTION crm_leads_draft_saved();--> statement-breakpoint
-- The drafts among `ids` become ordinary records. Nothing is written when none is a draft: an update
-- of no row would still count as a change of the table (data_changes, the kept answers).
CREATE OR REPLACE FUNCTION crm_drafts_filled(tbl text, ids int[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  IF tbl = 'objects' THEN
    UPDATE public.objects SET draft = false WHERE draft AND id = ANY(ids);
  ELSE
    UPDATE public.leads SET draft = false WHERE draft AND id = ANY(ids);
  END IF;
END $$;--> statement-breakpoint
-- Something attached to a property or a lead (a contact other than the owner it was added for, a
-- file, a key, an activity, an assignment, a viewing, a deal, a booking, an offer or a mark): each
-- statement finds the drafts it names among the few there are (none, mostly: one probe of an empty index).
CREATE OR REPLACE FUNCTION crm_drafts_attached() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  objs int[];
  lds int[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM public.objects WHERE draft) AND NOT EXISTS (SELECT 1 FROM public.leads WHERE draft) THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'object_accounts' THEN
    -- The owner link "Add property" on an account's page makes with the property, as it was made, is not a change.
    objs := ARRAY(SELECT d.id FROM public.objects d WHERE d.draft AND EXISTS (SELECT 1 FROM new_rows n WHERE n.object_id = d.id
      AND NOT (n.relation = 1 AND n.created_on = d.created_on AND n.start_date IS NULL AND n.end_date IS NULL
        AND n.price IS NULL AND n.rent_payment_day IS NULL AND n.deal_id IS NULL)));
  ELSIF TG_TABLE_NAME = 'files' THEN
    objs := ARRAY(SELECT d.id FROM public.objects d WHERE d.draft AND d.id IN (SELECT n.parent_id FROM new_rows n WHERE n.parent_type = 1));
  ELSIF TG_TABLE_NAME IN ('object_keys', 'viewing_objects', 'reservations', 'lead_object_marks') THEN
    objs := ARRAY(SELECT d.id FROM public.objects d WHERE d.draft AND d.id IN (SELECT n.object_id FROM new_rows n));
  ELSIF TG_TABLE_NAME = 'activity_links' THEN
    objs := ARRAY(SELECT d.id FROM public.objects d WHERE d.draft AND d.id IN (SELECT n.entity_id FROM new_rows n WHERE n.entity = 1));
    lds := ARRAY(SELECT d.id FROM public.leads d WHERE d.draft AND d.id IN (SELECT n.entity_id FROM new_rows n WHERE n.entity = 4));
  ELSIF TG_TABLE_NAME = 'assignments' THEN
    objs := ARRAY(SELECT d.id FROM public.objects d WHERE d.draft AND d.id IN (SELECT n.parent_id FROM new_rows n WHERE n.parent = 0));
    lds := ARRAY(SELECT d.id FROM public.leads d WHERE d.draft AND d.id IN (SELECT n.parent_id FROM new_rows n WHERE n.parent = 2));
  ELSIF TG_TABLE_NAME = 'lead_objects' THEN
    objs := ARRAY(SELECT d.id FROM public.objects d WHERE d.draft AND d.id IN (SELECT n.object_id FROM new_rows n));
    lds := ARRAY(SELECT d.id FROM public.leads d WHERE d.draft AND d.id IN (SELECT n.lead_id FROM new_rows n));
  ELSIF TG_TABLE_NAME = 'deals' THEN
    objs := ARRAY(SELECT d.id FROM public.objects d WHERE d.draft AND d.id IN (SELECT n.object_id FROM new_rows n));
    lds := ARRAY(SELECT d.id FROM public.leads d WHERE d.draft AND d.id IN (SELECT n.demand_id FROM new_rows n));
  ELSIF TG_TABLE_NAME = 'viewings' THEN
    lds := ARRAY(SELECT d.id FROM public.leads d WHERE d.draft AND d.id IN (SELECT n.demand_id FROM new_rows n));
  END IF;
  PERFORM public.crm_drafts_filled('objects', objs);
  PERFORM public.crm_drafts_filled('leads', lds);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER object_accounts_drafts_ins AFTER INSERT ON object_accounts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER object_accounts_drafts_upd AFTER UPDATE ON object_accounts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER files_drafts_ins AFTER INSERT ON files REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER files_drafts_upd AFTER UPDATE ON files REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER object_keys_drafts_ins AFTER INSERT ON object_keys REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER viewing_objects_drafts_ins AFTER INSERT ON viewing_objects REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER reservations_drafts_ins AFTER INSERT ON reservations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER reservations_drafts_upd AFTER UPDATE ON reservations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER lead_object_marks_drafts_ins AFTER INSERT ON lead_object_marks REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER activity_links_drafts_ins AFTER INSERT ON activity_links REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER assignments_drafts_ins AFTER INSERT ON assignments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER lead_objects_drafts_ins AFTER INSERT ON lead_objects REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER deals_drafts_ins AFTER INSERT ON deals REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER deals_drafts_upd AFTER UPDATE ON deals REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER viewings_drafts_ins AFTER INSERT ON viewings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
CREATE TRIGGER viewings_drafts_upd AFTER UPDATE ON viewings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_drafts_attached();--> statement-breakpoint
-- Kept matches (0063): a draft fits nobody (matching.ts), so a property or a lead that stops being
-- one is a change of what matching reads.
CREATE OR REPLACE FUNCTION crm_match_objects_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO public.match_changes (kind, id) SELECT 1, n.id FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO public.match_changes (kind, id) SELECT 1, o.id FROM old_rows o;
  ELSE
    INSERT INTO public.match_changes (kind, id)
    SELECT 1, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.draft, n.sold, n.active, n.modified_on, n.for_sale, n.sale_price, n.for_rent, n.rent_price, n.for_short_rent, n.short_rent_price,
        n.location_id, n.object_sub_type_id, n.area, n.bedrooms,
        n.new_building, n.under_construction, n.new_development, n.unfinished, n.renovated, n.required_renovation, n.neoclassical, n.preserved,
        n.luxurious, n.penthouse, n.elevator, n.internal_staircase, n.attic, n.playroom, n.storage_space, n.disabled_access, n.air_condition,
        n.under_floor_heating, n.fireplace, n.solar_water_heating, n.night_power, n.double_glass, n.window_screens, n.alarm, n.secure_door,
        n.furnished, n.painted, n.bright, n.airy, n.balcony, n.awning, n.garden, n.swimming_pool, n.parking, n.view, n.sea_view,
        n.first_coast_line, n.facade, n.corner, n.buildable_land, n.student, n.pets_welcome, n.suitable_for_commercial_use,
        n.eligible_for_golden_visa, n.investment, n.our_project, n.no_agent_fee_for_buyer)
      IS DISTINCT FROM
      (o.draft, o.sold, o.active, o.modified_on, o.for_sale, o.sale_price, o.for_rent, o.rent_price, o.for_short_rent, o.short_rent_price,
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
CREATE OR REPLACE FUNCTION crm_match_leads_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO public.match_changes (kind, id) SELECT 2, n.id FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO public.match_changes (kind, id) SELECT 2, o.id FROM old_rows o;
  ELSE
    INSERT INTO public.match_changes (kind, id)
    SELECT 2, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.draft, n.stage, n.created_on, n.for_purchase, n.purchase_budget_range_min, n.purchase_budget_range_max, n.for_rent, n.rent_budget_range_min,
        n.rent_budget_range_max, n.for_short_rent, n.short_rent_budget_range_min, n.short_rent_budget_range_max, n.location_id,
        n.object_sub_types, n.area_min, n.area_max, n.bedrooms_min, n.features)
      IS DISTINCT FROM
      (o.draft, o.stage, o.created_on, o.for_purchase, o.purchase_budget_range_min, o.purchase_budget_range_max, o.for_rent, o.rent_budget_range_min,
        o.rent_budget_range_max, o.for_short_rent, o.short_rent_budget_range_min, o.short_rent_budget_range_max, o.location_id,
        o.object_sub_types, o.area_min, o.area_max, o.bedrooms_min, o.features);
  END IF;
  IF FOUND THEN PERFORM public.crm_match_changes_job(); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The agents' results (0064): a draft property is not one taken on; it counts from the moment it is
-- filled in, on the day it was entered.
CREATE OR REPLACE FUNCTION crm_report_lines(k int, ids int[]) RETURNS TABLE (
  kind smallint, record_id int, day date, agents int[], n int, offers int, sales int, sales_value numeric, sales_commission numeric,
  rentals int, rentals_value numeric, rentals_commission numeric
) LANGUAGE plpgsql STABLE AS $$
DECLARE
  z text := (SELECT r.zone FROM public.report_zone r WHERE r.id = 1);
BEGIN
  IF k = 1 THEN
    RETURN QUERY SELECT 1::smallint, o.id, (o.created_on AT TIME ZONE z)::date, ARRAY[o.created_by_account_id], 1, 0, 0, 0::numeric, 0::numeric, 0, 0::numeric, 0::numeric
      FROM public.objects o WHERE (ids IS NULL OR o.id = ANY(ids)) AND o.created_by_account_id IS NOT NULL AND NOT o.draft;
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
CREATE OR REPLACE FUNCTION crm_report_objects_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM public.crm_report_refresh(1, (SELECT array_agg(n.id) FROM new_rows n WHERE n.created_by_account_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM public.crm_report_refresh(1, (SELECT array_agg(o.id) FROM old_rows o WHERE o.created_by_account_id IS NOT NULL));
  ELSE
    PERFORM public.crm_report_refresh(1, (SELECT array_agg(n.id) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.created_on, n.created_by_account_id, n.draft) IS DISTINCT FROM (o.created_on, o.created_by_account_id, o.draft)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The drafts already there: what the clean-up took for untouched (made by a person with Add, never
-- saved, nothing attached; a lead without a client, description or service; a property not published).
UPDATE objects o SET draft = true
WHERE o.version = 1 AND o.created_by IS NOT NULL
  AND o.published IS NOT TRUE AND o.publish_requested IS NOT TRUE AND o.publish_error IS NULL
  AND NOT EXISTS (SELECT 1 FROM object_accounts a WHERE a.object_id = o.id
    AND NOT (a.relation = 1 AND a.created_on = o.created_on AND a.start_date IS NULL AND a.end_date IS NULL
      AND a.price IS NULL AND a.rent_payment_day IS NULL AND a.deal_id IS NULL))
  AND NOT EXISTS (SELECT 1 FROM files f WHERE f.parent_type = 1 AND f.parent_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM object_keys k WHERE k.object_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM activity_links l WHERE l.entity = 1 AND l.entity_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM assignments s WHERE s.parent = 0 AND s.parent_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM viewing_objects v WHERE v.object_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM deals d WHERE d.object_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM reservations r WHERE r.object_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM lead_objects lo WHERE lo.object_id = o.id)
  AND NOT EXISTS (SELECT 1 FROM lead_object_marks lm WHERE lm.object_id = o.id);--> statement-breakpoint
UPDATE leads l SET draft = true
WHERE l.account_id IS NULL AND l.version = 1 AND l.created_by IS NOT NULL AND l.description IS NULL
  AND NOT (l.for_purchase OR l.for_rent OR l.for_short_rent OR l.for_sell OR l.for_rent_out)
  AND NOT EXISTS (SELECT 1 FROM lead_objects o WHERE o.lead_id = l.id)
  AND NOT EXISTS (SELECT 1 FROM activity_links a WHERE a.entity = 4 AND a.entity_id = l.id)
  AND NOT EXISTS (SELECT 1 FROM assignments s WHERE s.parent = 2 AND s.parent_id = l.id)
  AND NOT EXISTS (SELECT 1 FROM viewings v WHERE v.demand_id = l.id)
  AND NOT EXISTS (SELECT 1 FROM deals d WHERE d.demand_id = l.id);
