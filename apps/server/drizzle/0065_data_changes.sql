-- Answers kept while their data has not changed (decision 072; lib/kept-answers.ts): every statement
-- that writes one of these tables adds a row here, in its own transaction, so a change and its row
-- become visible together. The sum of a set of tables' weights only grows, and grows exactly when a
-- change to one of them is committed: an answer made between two equal readings of it is the answer
-- for every moment until the sum moves. Inserts only: writers never wait for each other here.
-- crm_data_changes_compact() folds a table's rows into one (the same sum), every few minutes.
CREATE TABLE "data_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"weight" bigint DEFAULT 1 NOT NULL
);--> statement-breakpoint
CREATE INDEX "data_changes_domain_idx" ON "data_changes" USING btree ("domain") INCLUDE ("weight");--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.data_changes (domain) VALUES (TG_TABLE_NAME);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_data_version(domains text[]) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(weight), 0)::bigint FROM public.data_changes WHERE domain = ANY(domains)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_data_changes_compact() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d text;
BEGIN
  FOR d IN SELECT domain FROM public.data_changes GROUP BY domain HAVING count(*) > 1 LOOP
    WITH gone AS (DELETE FROM public.data_changes WHERE domain = d RETURNING weight)
    INSERT INTO public.data_changes (domain, weight) SELECT d, sum(weight) FROM gone HAVING count(*) > 0;
  END LOOP;
END $$;--> statement-breakpoint
-- What the calendar reads (viewings, their properties and agents, leads' clients, to-dos and the records they are on, stays).
CREATE TRIGGER viewings_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON viewings FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER viewing_objects_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON viewing_objects FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER assignments_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON assignments FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER leads_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON leads FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER accounts_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER activities_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON activities FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER activity_links_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON activity_links FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER reservations_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reservations FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER objects_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON objects FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
-- The texts (an import of them renames what an answer says).
CREATE TRIGGER localization_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON localization FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
