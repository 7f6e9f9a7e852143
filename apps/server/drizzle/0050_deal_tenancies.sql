-- A closed rental puts its tenant on the property (object_accounts, relation 4; decision 016). The
-- link now names the deal that put it there, and says whether it was changed since (in the
-- property's Contacts, or stretched by another deal): deleting the deal takes away the link it made
-- that nobody changed, and leaves the others, as the delete's confirmation says.
ALTER TABLE object_accounts ADD COLUMN deal_id integer REFERENCES deals(id) ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE object_accounts ADD COLUMN changed_since_deal boolean NOT NULL DEFAULT false;
--> statement-breakpoint
CREATE INDEX object_accounts_deal_idx ON object_accounts (deal_id) WHERE deal_id IS NOT NULL;
--> statement-breakpoint
-- The links deals made before: the action log's AddContact that carries the deal's id, written in
-- the link's own transaction (the same now() as its created_on). Changed since: a later
-- UpdateContact of the link that is not that deal's own (a person's, or another deal's).
UPDATE object_accounts l
SET deal_id = a.deal_id,
  changed_since_deal = EXISTS (
    SELECT 1 FROM action_log u
    WHERE u.entity = 'Object' AND u.entity_id = l.object_id AND u.action = 'UpdateContact' AND u.id > a.id
      AND u.data->>'accountId' = l.account_id::text AND u.data->>'relation' = '4'
      AND (u.data->>'dealId') IS DISTINCT FROM a.deal_id::text)
FROM (
  SELECT id, date, entity_id AS object_id, data->>'accountId' AS account_id, (data->>'dealId')::int AS deal_id
  FROM action_log
  WHERE entity = 'Object' AND action = 'AddContact' AND data->>'relation' = '4' AND data->>'dealId' ~ '^[0-9]{1,9}$'
) a
WHERE l.object_id = a.object_id AND l.account_id::text = a.account_id AND l.relation = 4 AND l.created_on = a.date
  AND EXISTS (SELECT 1 FROM deals d WHERE d.id = a.deal_id);
