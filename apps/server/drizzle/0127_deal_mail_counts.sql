-- A deal's mail counted ahead as the other records' are (decision 105): a deal's thread is its
-- sellers' and buyers' and its property's messages together, each once (decision 082), and its total
-- was counted on the spot on every timeline and mail list of the deal: 8.9 ms of PostgreSQL for the
-- deal of the account with 2,000 messages. mail_counts now holds kind 4 (a deal) too, per mailbox:
-- its distinct linked messages not marked deleted. A deal is counted again when its own changes are
-- folded (its parties added, removed or moved; its property changed; made or removed: kind 4 in
-- mail_count_changes), and when one of its sellers', buyers' or its property's links or messages
-- change (found through deal_parties and deals when folded). A reader counts a deal on the spot while
-- any of these waits.
CREATE OR REPLACE FUNCTION crm_mail_deals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO public.mail_count_changes (kind, id) SELECT 4, n.id FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO public.mail_count_changes (kind, id) SELECT 4, o.id FROM old_rows o;
  ELSE
    -- Only a changed property changes the thread: a deal's other saves queue nothing.
    INSERT INTO public.mail_count_changes (kind, id) SELECT 4, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.object_id IS DISTINCT FROM o.object_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A link table, the deals or their parties truncated: the kinds named (each argument) lose their
-- counts. A deal's thread draws on several tables: when one of them that is not the deals is
-- truncated, every deal left is queued to be counted again (counted on the spot until then).
CREATE OR REPLACE FUNCTION crm_mail_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM public.mail_count_changes WHERE kind = any(TG_ARGV::smallint[]);
  DELETE FROM public.mail_counts WHERE kind = any(TG_ARGV::smallint[]);
  IF 4 = any(TG_ARGV::smallint[]) AND TG_TABLE_NAME <> 'deals' THEN
    INSERT INTO public.mail_count_changes (kind, id) SELECT 4, d.id FROM public.deals d;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER mail_message_accounts_counts_truncate ON mail_message_accounts;--> statement-breakpoint
CREATE TRIGGER mail_message_accounts_counts_truncate AFTER TRUNCATE ON mail_message_accounts FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_counts_truncate('0', '4');--> statement-breakpoint
DROP TRIGGER mail_message_objects_counts_truncate ON mail_message_objects;--> statement-breakpoint
CREATE TRIGGER mail_message_objects_counts_truncate AFTER TRUNCATE ON mail_message_objects FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_counts_truncate('1', '4');--> statement-breakpoint
CREATE TRIGGER deal_parties_mail_counts_ins AFTER INSERT ON deal_parties REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('4', 'deal_id');--> statement-breakpoint
CREATE TRIGGER deal_parties_mail_counts_upd AFTER UPDATE ON deal_parties REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('4', 'deal_id');--> statement-breakpoint
CREATE TRIGGER deal_parties_mail_counts_del AFTER DELETE ON deal_parties REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_links_changed('4', 'deal_id');--> statement-breakpoint
CREATE TRIGGER deal_parties_mail_counts_truncate AFTER TRUNCATE ON deal_parties FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_counts_truncate('4');--> statement-breakpoint
CREATE TRIGGER deals_mail_counts_ins AFTER INSERT ON deals REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_deals_changed();--> statement-breakpoint
CREATE TRIGGER deals_mail_counts_upd AFTER UPDATE ON deals REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_deals_changed();--> statement-breakpoint
CREATE TRIGGER deals_mail_counts_del AFTER DELETE ON deals REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_deals_changed();--> statement-breakpoint
CREATE TRIGGER deals_mail_counts_truncate AFTER TRUNCATE ON deals FOR EACH STATEMENT EXECUTE FUNCTION crm_mail_counts_truncate('4');--> statement-breakpoint
-- A deal's messages (deal_id, message_id), each once: its sellers' and buyers' (relations 1 and 2) and its property's.
CREATE OR REPLACE FUNCTION crm_mail_deal_messages(dls integer[]) RETURNS TABLE (deal_id integer, message_id integer) LANGUAGE sql STABLE AS $$
  SELECT p.deal_id, l.message_id FROM public.deal_parties p JOIN public.mail_message_accounts l ON l.account_id = p.account_id
  WHERE (dls IS NULL OR p.deal_id = any(dls)) AND p.relation IN (1, 2)
  UNION SELECT d.id, l.message_id FROM public.deals d JOIN public.mail_message_objects l ON l.object_id = d.object_id
  WHERE dls IS NULL OR d.id = any(dls)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_mail_counts_fold() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  taken jsonb;
  accs int[];
  objs int[];
  lds int[];
  msgs int[];
  dls int[];
BEGIN
  IF NOT pg_try_advisory_xact_lock(7275112) THEN RETURN; END IF;
  -- The tables read, locked before anything is written: a truncate under way is waited for here
  -- (it takes no lock of the fold's), and one coming later waits for the fold's end.
  LOCK TABLE public.mail_messages, public.mail_message_accounts, public.mail_message_objects, public.mail_message_leads, public.deals, public.deal_parties IN ACCESS SHARE MODE;
  WITH d AS (DELETE FROM public.mail_count_changes RETURNING kind, id) SELECT jsonb_agg(jsonb_build_array(kind, id)) INTO taken FROM d;
  IF taken IS NULL THEN RETURN; END IF;
  SELECT array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 0), array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 1),
    array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 2), array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 3),
    array_agg(DISTINCT (x->>1)::int) FILTER (WHERE (x->>0)::int = 4)
  INTO accs, objs, lds, msgs, dls FROM jsonb_array_elements(taken) x;
  IF msgs IS NOT NULL THEN
    accs := array(SELECT unnest(coalesce(accs, '{}')) UNION SELECT account_id FROM public.mail_message_accounts WHERE message_id = any(msgs));
    objs := array(SELECT unnest(coalesce(objs, '{}')) UNION SELECT object_id FROM public.mail_message_objects WHERE message_id = any(msgs));
    lds := array(SELECT unnest(coalesce(lds, '{}')) UNION SELECT lead_id FROM public.mail_message_leads WHERE message_id = any(msgs));
  END IF;
  -- The deals whose thread holds a changed account's or property's mail.
  dls := array(SELECT unnest(coalesce(dls, '{}'))
    UNION SELECT p.deal_id FROM public.deal_parties p WHERE p.account_id = any(coalesce(accs, '{}')) AND p.relation IN (1, 2)
    UNION SELECT d.id FROM public.deals d WHERE d.object_id = any(coalesce(objs, '{}')));
  -- At most 25 deals a fold: a seller in hundreds of deals would have each read their whole thread
  -- every 30 s while their mail comes in. The rest wait for the next fold (counted on the spot meanwhile).
  IF cardinality(dls) > 25 THEN
    INSERT INTO public.mail_count_changes (kind, id) SELECT 4, x FROM unnest(dls[26:]) x;
    dls := dls[1:25];
  END IF;
  DELETE FROM public.mail_counts WHERE (kind = 0 AND record_id = any(accs)) OR (kind = 1 AND record_id = any(objs)) OR (kind = 2 AND record_id = any(lds)) OR (kind = 4 AND record_id = any(dls));
  INSERT INTO public.mail_counts (kind, record_id, mailbox_id, n)
  SELECT 0, l.account_id, m.mailbox_id, count(*) FROM public.mail_message_accounts l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL
  WHERE l.account_id = any(accs) GROUP BY 2, 3
  UNION ALL SELECT 1, l.object_id, m.mailbox_id, count(*) FROM public.mail_message_objects l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL
  WHERE l.object_id = any(objs) GROUP BY 2, 3
  UNION ALL SELECT 2, l.lead_id, m.mailbox_id, count(*) FROM public.mail_message_leads l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL
  WHERE l.lead_id = any(lds) GROUP BY 2, 3
  UNION ALL SELECT 4, x.deal_id, m.mailbox_id, count(*) FROM public.crm_mail_deal_messages(dls) x JOIN public.mail_messages m ON m.id = x.message_id AND m.deleted_on IS NULL
  GROUP BY 2, 3;
END $$;--> statement-breakpoint
-- Counted whole (the migration; the bench generator's load without triggers), under the fold's lock,
-- the links, messages, deals and parties share-locked so that nothing changes between the changes' deletion and the count.
CREATE OR REPLACE FUNCTION crm_mail_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE public.mail_messages, public.mail_message_accounts, public.mail_message_objects, public.mail_message_leads, public.deals, public.deal_parties IN SHARE MODE;
  PERFORM pg_advisory_xact_lock(7275112);
  DELETE FROM public.mail_count_changes;
  DELETE FROM public.mail_counts;
  INSERT INTO public.mail_counts (kind, record_id, mailbox_id, n)
  SELECT 0, l.account_id, m.mailbox_id, count(*) FROM public.mail_message_accounts l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL GROUP BY 2, 3
  UNION ALL SELECT 1, l.object_id, m.mailbox_id, count(*) FROM public.mail_message_objects l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL GROUP BY 2, 3
  UNION ALL SELECT 2, l.lead_id, m.mailbox_id, count(*) FROM public.mail_message_leads l JOIN public.mail_messages m ON m.id = l.message_id AND m.deleted_on IS NULL GROUP BY 2, 3
  UNION ALL SELECT 4, x.deal_id, m.mailbox_id, count(*) FROM public.crm_mail_deal_messages(NULL) x JOIN public.mail_messages m ON m.id = x.message_id AND m.deleted_on IS NULL GROUP BY 2, 3;
END $$;--> statement-breakpoint
SELECT crm_mail_counts_rebuild();
