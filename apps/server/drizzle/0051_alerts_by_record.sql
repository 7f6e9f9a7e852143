-- A refused publish replaces the unread alert about its property (each auto-save while an admin fills
-- the gaps): found from this index, not by reading every unread alert.
CREATE INDEX "alerts_unread_entity_idx" ON "alerts" USING btree ("entity","entity_id") WHERE "readed_on" is null;
