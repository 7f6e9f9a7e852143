-- Whether a property's approximate circle hides its exact point: its centre at least a fifth of the
-- radius away from the point (the same rule as circleHidesPoint in the contract). A circle drawn
-- around the point itself gives the address away, so the public pages and the feed show no circle
-- then, and publishing refuses it. True when there is no point or no circle to compare.
CREATE OR REPLACE FUNCTION crm_circle_hides_point(lat double precision, lng double precision, clat double precision, clng double precision, radius double precision)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lat IS NULL OR lng IS NULL OR clat IS NULL OR clng IS NULL OR radius IS NULL
    OR sqrt(power((clat - lat) * 111320, 2) + power((clng - lng) * 111320 * cos(radians(lat)), 2)) >= radius / 5
$$;
--> statement-breakpoint
-- The circles the editor drew around the hidden point itself (before it moved new ones off it): moved
-- once, in a random direction, a quarter to half of the radius away, as the editor now does.
UPDATE objects o SET
  map_circle_latitude = round((o.latitude + m.d * cos(m.a) / 111320)::numeric, 6)::double precision,
  map_circle_longitude = round((o.longitude + m.d * sin(m.a) / (111320 * cos(radians(o.latitude))))::numeric, 6)::double precision
FROM (
  SELECT id, random() * 2 * pi() AS a, map_circle_radius * (0.25 + random() * 0.25) AS d
  FROM objects
  WHERE NOT display_coordinates AND map_circle_radius IS NOT NULL
    AND NOT crm_circle_hides_point(latitude, longitude, map_circle_latitude, map_circle_longitude, map_circle_radius)
) m
WHERE o.id = m.id;
