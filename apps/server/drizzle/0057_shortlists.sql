-- Shortlists (decision 049): the properties an agent sends a lead's client as a link. The link's
-- token is kept only as its SHA-256; the client's answers are kept per property.
CREATE TABLE "shortlists" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"lead_id" integer NOT NULL,
	"sent_on" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_by" integer,
	"sent_by_name" text,
	"channel" text NOT NULL,
	"email" text,
	"language" text NOT NULL,
	"expires_on" timestamp with time zone NOT NULL,
	"opened_on" timestamp with time zone,
	CONSTRAINT "shortlists_channel_check" CHECK ("channel" in ('email', 'link'))
);
--> statement-breakpoint
CREATE TABLE "shortlist_objects" (
	"shortlist_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"position" integer NOT NULL,
	"answer" text,
	"answered_on" timestamp with time zone,
	CONSTRAINT "shortlist_objects_shortlist_id_object_id_pk" PRIMARY KEY("shortlist_id","object_id"),
	CONSTRAINT "shortlist_objects_answer_check" CHECK ("answer" in ('interested', 'notForMe'))
);
--> statement-breakpoint
ALTER TABLE "shortlists" ADD CONSTRAINT "shortlists_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shortlists" ADD CONSTRAINT "shortlists_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shortlist_objects" ADD CONSTRAINT "shortlist_objects_shortlist_id_shortlists_id_fk" FOREIGN KEY ("shortlist_id") REFERENCES "public"."shortlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shortlist_objects" ADD CONSTRAINT "shortlist_objects_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shortlists_token_hash_idx" ON "shortlists" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "shortlists_lead_idx" ON "shortlists" USING btree ("lead_id","sent_on");--> statement-breakpoint
CREATE INDEX "shortlist_objects_object_idx" ON "shortlist_objects" USING btree ("object_id");
