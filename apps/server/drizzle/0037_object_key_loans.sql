-- A key's lending history (decision 014): one row per loan (holder, given away, received back),
-- the newest being the key's current loan. Written in the same transaction as the key's save.
CREATE TABLE "object_key_loans" (
	"id" serial PRIMARY KEY NOT NULL,
	"key_id" integer NOT NULL,
	"account_id" integer,
	"given_away" date,
	"received" date,
	"recorded_on" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_by" integer
);
--> statement-breakpoint
ALTER TABLE "object_key_loans" ADD CONSTRAINT "object_key_loans_key_id_object_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."object_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_key_loans" ADD CONSTRAINT "object_key_loans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_key_loans" ADD CONSTRAINT "object_key_loans_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "object_key_loans_key_idx" ON "object_key_loans" USING btree ("key_id","id");--> statement-breakpoint
CREATE INDEX "object_key_loans_account_idx" ON "object_key_loans" USING btree ("account_id");--> statement-breakpoint
-- The keys already lent out (a holder or a given-away date) start their history with that loan; the
-- received date is its return only when it is not before the given-away date.
INSERT INTO "object_key_loans" ("key_id", "account_id", "given_away", "received", "recorded_on", "recorded_by")
SELECT k.id, k.account_id, k.given_away,
  CASE WHEN k.received IS NOT NULL AND (k.given_away IS NULL OR k.received >= k.given_away) THEN k.received END,
  k.modified_on, k.modified_by
FROM object_keys k
WHERE k.account_id IS NOT NULL OR k.given_away IS NOT NULL
ORDER BY k.id;
