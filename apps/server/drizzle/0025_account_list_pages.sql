-- Account lists page in two steps (accounts.lists.ts): a later page's ids, then the columns of those
-- rows. The ids come from an index alone when it holds everything the step reads: the date indexes
-- gain the id (ties), and the name indexes of each language (migration 0009) the kind flags, so a
-- page of owners in name order skips the rows before it without reading them from the table.
DROP INDEX "accounts_created_on_idx";--> statement-breakpoint
DROP INDEX "accounts_modified_on_idx";--> statement-breakpoint
DROP INDEX "accounts_owner_idx";--> statement-breakpoint
DROP INDEX "accounts_client_idx";--> statement-breakpoint
DROP INDEX "accounts_employe_idx";--> statement-breakpoint
DROP INDEX "accounts_source_idx";--> statement-breakpoint
DROP INDEX "accounts_professional_idx";--> statement-breakpoint
DROP INDEX "accounts_partner_idx";--> statement-breakpoint
CREATE INDEX "accounts_created_on_idx" ON "accounts" USING btree ("created_on","id");--> statement-breakpoint
CREATE INDEX "accounts_modified_on_idx" ON "accounts" USING btree ("modified_on","id");--> statement-breakpoint
CREATE INDEX "accounts_owner_idx" ON "accounts" USING btree ("created_on","id") WHERE "accounts"."is_owner";--> statement-breakpoint
CREATE INDEX "accounts_client_idx" ON "accounts" USING btree ("created_on","id") WHERE "accounts"."is_client";--> statement-breakpoint
CREATE INDEX "accounts_employe_idx" ON "accounts" USING btree ("created_on","id") WHERE "accounts"."is_employe";--> statement-breakpoint
CREATE INDEX "accounts_source_idx" ON "accounts" USING btree ("created_on","id") WHERE "accounts"."is_source";--> statement-breakpoint
CREATE INDEX "accounts_professional_idx" ON "accounts" USING btree ("created_on","id") WHERE "accounts"."is_professional";--> statement-breakpoint
CREATE INDEX "accounts_partner_idx" ON "accounts" USING btree ("created_on","id") WHERE "accounts"."is_partner_real_estate" or "accounts"."is_partner_tourism";;--> statement-breakpoint
DROP INDEX "accounts_name_el_idx";--> statement-breakpoint
DROP INDEX "accounts_name_en_idx";--> statement-breakpoint
DROP INDEX "accounts_name_ru_idx";--> statement-breakpoint
CREATE INDEX "accounts_name_el_idx" ON "accounts" (display_name COLLATE "el-x-icu", id) INCLUDE (is_owner, is_client, is_partner_real_estate, is_partner_tourism, is_professional, is_source, is_employe);--> statement-breakpoint
CREATE INDEX "accounts_name_en_idx" ON "accounts" (display_name COLLATE "en-x-icu", id) INCLUDE (is_owner, is_client, is_partner_real_estate, is_partner_tourism, is_professional, is_source, is_employe);--> statement-breakpoint
CREATE INDEX "accounts_name_ru_idx" ON "accounts" (display_name COLLATE "ru-x-icu", id) INCLUDE (is_owner, is_client, is_partner_real_estate, is_partner_tourism, is_professional, is_source, is_employe);
