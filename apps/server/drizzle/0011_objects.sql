-- A place's names in the three languages, in search normal form, plus their Latin skeleton.
CREATE OR REPLACE FUNCTION crm_location_search_text(name_el text, name_en text, name_ru text)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT concat_ws(' ', public.crm_search_norm(concat_ws(' ', name_el, name_en, name_ru)),
    public.crm_latin_skeleton(concat_ws(' ', name_el, name_en, name_ru)))
$$;
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"level" smallint NOT NULL,
	"name_en" text NOT NULL,
	"name_el" text NOT NULL,
	"name_ru" text NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"search_text" text GENERATED ALWAYS AS (public.crm_location_search_text(name_el, name_en, name_ru)) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "object_accounts" (
	"object_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"relation" smallint NOT NULL,
	"start_date" date,
	"end_date" date,
	"price" numeric(14, 2),
	"rent_payment_day" smallint,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "object_accounts_object_id_account_id_relation_pk" PRIMARY KEY("object_id","account_id","relation")
);
--> statement-breakpoint
CREATE TABLE "objects" (
	"id" serial PRIMARY KEY NOT NULL,
	"reference_number" integer NOT NULL,
	"title" text,
	"sub_type_object_type_id" smallint,
	"object_sub_type_id" smallint,
	"for_sale" boolean DEFAULT false NOT NULL,
	"for_rent" boolean DEFAULT false NOT NULL,
	"for_short_rent" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"area" numeric(12, 2),
	"bedrooms" integer,
	"bathrooms" integer,
	"living_rooms" integer,
	"kitchens" integer,
	"wc" integer,
	"floor" integer,
	"levels" integer,
	"sale_price" numeric(14, 2),
	"sale_price_with_discount" numeric(14, 2),
	"date_of_sale_price_discount" date,
	"rent_price" numeric(14, 2),
	"rent_price_with_discount" numeric(14, 2),
	"date_of_rent_price_discount" date,
	"short_rent_price" numeric(14, 2),
	"average_monthly_shared_expenses" numeric(14, 2),
	"location_id" integer,
	"address" text,
	"display_address" boolean DEFAULT false NOT NULL,
	"zip_code" text,
	"distance_from_sea" integer,
	"distance_from_airport" integer,
	"access_from" smallint,
	"orientation" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"zone" smallint,
	"lot_area" numeric(12, 2),
	"buildable_area" numeric(12, 2),
	"size_of_balconies" numeric(12, 2),
	"parking_lots" integer,
	"construction_year" integer,
	"renovation_year" integer,
	"energy_class" smallint,
	"heating" smallint,
	"heating_medium" smallint,
	"frames_type" smallint,
	"floors_type" smallint,
	"date_available" date,
	"new_building" boolean,
	"under_construction" boolean,
	"new_development" boolean,
	"unfinished" boolean,
	"renovated" boolean,
	"required_renovation" boolean,
	"neoclassical" boolean,
	"preserved" boolean,
	"luxurious" boolean,
	"penthouse" boolean,
	"elevator" boolean,
	"internal_staircase" boolean,
	"attic" boolean,
	"playroom" boolean,
	"storage_space" boolean,
	"disabled_access" boolean,
	"air_condition" boolean,
	"under_floor_heating" boolean,
	"fireplace" boolean,
	"solar_water_heating" boolean,
	"night_power" boolean,
	"double_glass" boolean,
	"window_screens" boolean,
	"alarm" boolean,
	"secure_door" boolean,
	"furnished" boolean,
	"painted" boolean,
	"bright" boolean,
	"airy" boolean,
	"balcony" boolean,
	"awning" boolean,
	"garden" boolean,
	"swimming_pool" boolean,
	"parking" boolean,
	"view" boolean,
	"sea_view" boolean,
	"first_coast_line" boolean,
	"facade" boolean,
	"corner" boolean,
	"buildable_land" boolean,
	"student" boolean,
	"pets_welcome" boolean,
	"suitable_for_commercial_use" boolean,
	"eligible_for_golden_visa" boolean,
	"investment" boolean,
	"our_project" boolean,
	"no_agent_fee_for_buyer" boolean,
	"featured" boolean DEFAULT false NOT NULL,
	"recommended" boolean DEFAULT false NOT NULL,
	"sold_recently" boolean DEFAULT false NOT NULL,
	"reserved" boolean DEFAULT false NOT NULL,
	"has_banner" boolean DEFAULT false NOT NULL,
	"publish_requested" boolean DEFAULT false NOT NULL,
	"description" text,
	"title_ru" text,
	"description_ru" text,
	"video_url" text,
	"internal_notes" text,
	"latitude" double precision,
	"longitude" double precision,
	"display_coordinates" boolean DEFAULT false NOT NULL,
	"map_zoom" integer,
	"map_circle_latitude" double precision,
	"map_circle_longitude" double precision,
	"map_circle_radius" integer,
	"published" boolean DEFAULT false NOT NULL,
	"publish_error" text,
	"rented" boolean DEFAULT false NOT NULL,
	"sold" boolean DEFAULT false NOT NULL,
	"has_key" boolean DEFAULT false NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"created_by_account_id" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"last_update" timestamp with time zone,
	"owner_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"search_text" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "object_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"object_id" integer NOT NULL,
	"account_id" integer,
	"received" date,
	"given_away" date,
	"description" text,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "object_accounts" ADD CONSTRAINT "object_accounts_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_accounts" ADD CONSTRAINT "object_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_created_by_account_id_accounts_id_fk" FOREIGN KEY ("created_by_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_keys" ADD CONSTRAINT "object_keys_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_keys" ADD CONSTRAINT "object_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_keys" ADD CONSTRAINT "object_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_keys" ADD CONSTRAINT "object_keys_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "locations_parent_idx" ON "locations" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "object_accounts_account_idx" ON "object_accounts" USING btree ("account_id","relation");--> statement-breakpoint
CREATE UNIQUE INDEX "objects_reference_number_uq" ON "objects" USING btree ("reference_number");--> statement-breakpoint
CREATE INDEX "objects_created_on_idx" ON "objects" USING btree ("created_on");--> statement-breakpoint
CREATE INDEX "objects_modified_on_idx" ON "objects" USING btree ("modified_on");--> statement-breakpoint
CREATE INDEX "objects_owner_idx" ON "objects" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "objects_location_idx" ON "objects" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "objects_created_by_account_idx" ON "objects" USING btree ("created_by_account_id");--> statement-breakpoint
CREATE INDEX "object_keys_object_idx" ON "object_keys" USING btree ("object_id");--> statement-breakpoint
CREATE INDEX "object_keys_account_idx" ON "object_keys" USING btree ("account_id");
--> statement-breakpoint
-- Reference numbers come from a sequence: unique, and never given again after a delete.
CREATE SEQUENCE IF NOT EXISTS objects_reference_number_seq START 1;
--> statement-breakpoint
ALTER TABLE "objects" ALTER COLUMN "reference_number" SET DEFAULT nextval('objects_reference_number_seq');
--> statement-breakpoint
-- What global search and the title search match: the reference number (as shown, padded, and
-- bare), the titles, the address and the owner's name, in search normal form plus Latin skeleton.
CREATE OR REPLACE FUNCTION crm_object_search_text(ref integer, title text, title_ru text, address text, owner text)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT concat_ws(' ', lpad(ref::text, 4, '0'), ref::text,
    public.crm_search_norm(concat_ws(' ', title, title_ru, address, owner)),
    public.crm_latin_skeleton(concat_ws(' ', title, title_ru, address, owner)))
$$;
--> statement-breakpoint
CREATE INDEX objects_search_trgm_idx ON objects USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX locations_search_trgm_idx ON locations USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
-- An owner renamed: the objects they own are found by the new name.
CREATE OR REPLACE FUNCTION crm_objects_owner_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE objects o SET search_text = public.crm_object_search_text(o.reference_number, o.title, o.title_ru, o.address, NEW.display_name)
  WHERE o.owner_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_owner_renamed AFTER UPDATE OF first_name, last_name, middle_name, name, name_eng, name_local, is_company ON accounts
  FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name) EXECUTE FUNCTION crm_objects_owner_renamed();
--> statement-breakpoint
CREATE INDEX objects_for_sale_idx ON objects (sale_price) WHERE for_sale;
--> statement-breakpoint
CREATE INDEX objects_for_rent_idx ON objects (rent_price) WHERE for_rent;
--> statement-breakpoint
CREATE INDEX objects_for_short_rent_idx ON objects (short_rent_price) WHERE for_short_rent;
