-- The agency's today in SQL. Every connection of the app names the agency's time zone in the
-- setting crm.time_zone (db/client.ts); the session itself stays on UTC, so moments are read back
-- with a whole-hour offset whatever their year (Athens' local mean time before 1916, +01:34:52, was
-- not a date JavaScript can read). A connection without the setting (psql, a script) gets UTC's day.
CREATE OR REPLACE FUNCTION crm_today() RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (now() AT TIME ZONE coalesce(nullif(current_setting('crm.time_zone', true), ''), 'UTC'))::date
$$;
--> statement-breakpoint
-- An object's owner: the first owner link not yet ended on the agency's today (it was UTC's).
CREATE OR REPLACE FUNCTION crm_objects_refresh_owner(ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE objects o SET owner_id = w.account_id
  FROM (
    SELECT i.id, (
      SELECT oa.account_id FROM object_accounts oa
      WHERE oa.object_id = i.id AND oa.relation = 1 AND (oa.end_date IS NULL OR oa.end_date >= public.crm_today())
      ORDER BY oa.start_date NULLS FIRST, oa.created_on, oa.account_id
      LIMIT 1) AS account_id
    FROM unnest(ids) AS i(id)
  ) w
  WHERE o.id = w.id AND o.owner_id IS DISTINCT FROM w.account_id
$$;
