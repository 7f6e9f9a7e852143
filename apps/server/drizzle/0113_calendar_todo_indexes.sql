-- The calendar's to-dos (decision 106). Its week read the open activities from the index of all
-- activities by date, each row's heap read to leave out the done ones (past weeks: a week's ten
-- thousand done ones read for none), then sorted again by id; read here in the answer's order
-- from the open ones alone. Each to-do's first link was looked up among all its links and sorted
-- by position; here it is the first entry of its own in the index, read without the table.
CREATE INDEX IF NOT EXISTS "activities_todo_date_idx" ON "activities" ("date", "id") WHERE "done" = false;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "activity_links_first_idx" ON "activity_links" ("activity_id", "position", "entity", "entity_id");
