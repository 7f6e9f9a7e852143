-- Hand-written (kept here when the migration is regenerated): the client's names, e-mail and phone
-- (also as bare digits) in the search normal form, with the names' Latin skeleton.
CREATE OR REPLACE FUNCTION crm_reservation_search_text(last_name text, first_name text, email text, phone text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT public.crm_search_norm(coalesce(last_name, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || regexp_replace(coalesce(phone, ''), '[^0-9+]', '', 'g'))
    || ' ' || public.crm_latin_skeleton(coalesce(last_name, '') || ' ' || coalesce(first_name, ''))
$$;--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" serial PRIMARY KEY NOT NULL,
	"reservation_stage" smallint DEFAULT 1 NOT NULL,
	"booking_date" date,
	"object_id" integer NOT NULL,
	"check_in" date NOT NULL,
	"duration" integer NOT NULL,
	"check_out" date GENERATED ALWAYS AS (check_in + duration) STORED NOT NULL,
	"adults" smallint,
	"children" smallint,
	"arrival_time_planned" text,
	"arrival_time_actual" text,
	"demand_id" integer,
	"client_account_id" integer,
	"client_last_name" text NOT NULL,
	"client_first_name" text,
	"client_tax_number" text,
	"client_internal_passport_number" text,
	"client_email" text,
	"client_phone" text,
	"source_id" smallint,
	"reservation_number_external" text,
	"external_link" text,
	"problem" text,
	"awaiting" text,
	"total" numeric(14, 2),
	"total_done" boolean DEFAULT false NOT NULL,
	"prepayment_cash" numeric(14, 2),
	"prepayment_cash_done" boolean DEFAULT false NOT NULL,
	"prepayment_bank" numeric(14, 2),
	"prepayment_bank_done" boolean DEFAULT false NOT NULL,
	"prepayment_invoice" numeric(14, 2),
	"total_payment_deposit" numeric(14, 2) GENERATED ALWAYS AS (coalesce(prepayment_cash, 0) + coalesce(prepayment_bank, 0) + coalesce(prepayment_invoice, 0)) STORED NOT NULL,
	"rest_cash" numeric(14, 2),
	"rest_cash_done" boolean DEFAULT false NOT NULL,
	"rest_bank" numeric(14, 2),
	"rest_bank_done" boolean DEFAULT false NOT NULL,
	"rest_invoice" numeric(14, 2),
	"payment_to_owner" numeric(14, 2),
	"owner_payments" boolean DEFAULT false NOT NULL,
	"payment_type" smallint,
	"owner_payment_date" date,
	"owner_payment_notes" text,
	"comission" numeric(14, 2),
	"comission3rd_party" numeric(14, 2),
	"final_comission" numeric(14, 2) GENERATED ALWAYS AS (coalesce(comission, 0) - coalesce(comission3rd_party, 0)) STORED NOT NULL,
	"search_text" text GENERATED ALWAYS AS (public.crm_reservation_search_text(client_last_name, client_first_name, client_email, client_phone)) STORED NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "website_code" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_demand_id_leads_id_fk" FOREIGN KEY ("demand_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_client_account_id_accounts_id_fk" FOREIGN KEY ("client_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservations_check_in_idx" ON "reservations" USING btree ("check_in","id");--> statement-breakpoint
CREATE INDEX "reservations_check_out_idx" ON "reservations" USING btree ("check_out","id");--> statement-breakpoint
CREATE INDEX "reservations_booking_date_idx" ON "reservations" USING btree ("booking_date","id");--> statement-breakpoint
CREATE INDEX "reservations_object_idx" ON "reservations" USING btree ("object_id","check_in");--> statement-breakpoint
CREATE INDEX "reservations_stage_idx" ON "reservations" USING btree ("reservation_stage","check_in");--> statement-breakpoint
CREATE INDEX "reservations_source_idx" ON "reservations" USING btree ("source_id","check_in");--> statement-breakpoint
CREATE INDEX "reservations_client_account_idx" ON "reservations" USING btree ("client_account_id");--> statement-breakpoint
CREATE INDEX "reservations_demand_idx" ON "reservations" USING btree ("demand_id");--> statement-breakpoint
CREATE INDEX "reservations_search_trgm_idx" ON "reservations" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- Hand-written (kept here when the migration is regenerated): no double booking, whatever the
-- timing. Two stays of the same object that are not cancelled (stage 7) never share a night; the
-- check-out day is free for the next guest ('[)' ranges).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_no_double_booking" EXCLUDE USING gist ("object_id" WITH =, daterange("check_in", "check_out", '[)') WITH &&) WHERE ("reservation_stage" <> 7);--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_stay_check" CHECK ("duration" BETWEEN 1 AND 365);--> statement-breakpoint
-- The "stay" date filter: any night of the stay in the range.
CREATE INDEX "reservations_stay_idx" ON "reservations" USING gist (daterange("check_in", "check_out", '[)'));--> statement-breakpoint
-- Reservation numbers of the booking sites, and the properties' website codes, found by their start.
CREATE INDEX "reservations_external_number_idx" ON "reservations" (lower("reservation_number_external") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "objects_website_code_idx" ON "objects" (lower("website_code") text_pattern_ops);
