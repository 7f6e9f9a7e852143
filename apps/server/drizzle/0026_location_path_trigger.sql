-- A place's path (its ancestors' ids and its own, from the top) is kept by the database on every
-- insert and every change of parent, so a place added any way (the seed, an import, a test) is
-- found under its parents at once. The seed still writes paths and texts for the whole tree.
CREATE OR REPLACE FUNCTION crm_location_path() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.path := coalesce((SELECT p.path FROM locations p WHERE p.id = NEW.parent_id), '{}'::int[]) || NEW.id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER locations_path BEFORE INSERT OR UPDATE OF parent_id ON locations FOR EACH ROW EXECUTE FUNCTION crm_location_path();--> statement-breakpoint
-- Places written before this without a path get one now.
WITH RECURSIVE tree(id, path) AS (
  SELECT id, ARRAY[id] FROM locations WHERE parent_id IS NULL
  UNION ALL
  SELECT l.id, t.path || l.id FROM locations l JOIN tree t ON l.parent_id = t.id
)
UPDATE locations l SET path = t.path FROM tree t WHERE l.id = t.id AND l.path IS DISTINCT FROM t.path;
