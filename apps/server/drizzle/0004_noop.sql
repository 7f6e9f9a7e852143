-- display_name and search_text are created by 0003 with their real expressions; this migration only
-- records them in Drizzle's snapshot (the schema declares them as generated columns).
SELECT 1;
