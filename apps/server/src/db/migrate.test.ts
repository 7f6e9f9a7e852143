import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrateDb } from './migrate.ts';
import { createTestApp } from '../../test/harness.ts';

/**
 * What undoes the newest migrations, the newest first (each undone before what it builds on). A new
 * migration adds its entry at the top; the tests below undo down to the one they start from.
 */
const VACUUMED_SOONER = ['objects', 'accounts', 'leads', 'deals', 'viewings', 'viewing_objects', 'reservations', 'object_keys', 'object_key_loans', 'transactions', 'alerts', 'activities', 'activity_links', 'action_log', 'account_words', 'lead_words', 'search_words'];

/** A committed migration's statements that `keep` picks, as it wrote them. */
function statementsOf(migration: string, keep: (statement: string) => boolean): string[] {
  const text = fs.readFileSync(new URL(`../../drizzle/${migration}.sql`, import.meta.url), 'utf8');
  return text.split('--> statement-breakpoint').map((s) => s.trim()).filter(keep);
}

const UNDO: { migration: string; before: string; sql: string[] }[] = [
  {
    migration: '0129',
    before: "the accounts' display names without their search-form index",
    sql: [`drop index accounts_display_name_norm_idx`, `drop index accounts_last_first_norm_idx`],
  },
  {
    migration: '0128',
    before: 'an upload read with its headers on the first row',
    sql: [`alter table imports drop column row_numbers`, `alter table imports drop column header_row`],
  },
  {
    migration: '0127',
    before: "a deal's mail counted on the spot",
    sql: [
      `drop function crm_mail_deals_changed() cascade`,
      `drop trigger deals_mail_counts_truncate on deals`,
      ...['ins', 'upd', 'del', 'truncate'].map((t) => `drop trigger deal_parties_mail_counts_${t} on deal_parties`),
      `drop trigger mail_message_accounts_counts_truncate on mail_message_accounts`,
      `drop trigger mail_message_objects_counts_truncate on mail_message_objects`,
      // 0112's fold, rebuild and truncate functions and its truncate triggers of the two link tables, as 0112 wrote them.
      ...statementsOf('0112_mail_counts', (s) => /FUNCTION crm_mail_counts_(fold|rebuild|truncate)\(\)|TRIGGER mail_message_(accounts|objects)_counts_truncate /.test(s)),
      `drop function crm_mail_deal_messages(integer[])`,
      `delete from mail_counts where kind = 4`,
      `delete from mail_count_changes where kind = 4`,
    ],
  },
  {
    migration: '0126',
    before: "the properties' search text with the reference number cut to four digits beside the whole one",
    sql: [
      `create or replace function crm_object_search_text(ref integer, title text, title_ru text, address text, owner text)
        returns text language sql immutable parallel safe as $$
        select concat_ws(' ', lpad(ref::text, 4, '0'), ref::text,
          public.crm_search_norm(concat_ws(' ', title, title_ru, address, owner)),
          public.crm_latin_skeleton(concat_ws(' ', title, title_ru, address, owner)))
      $$`,
    ],
  },
  {
    migration: '0124',
    before: "the global search's properties walked in reference order, without their words",
    sql: [
      `drop trigger objects_words_insert on objects`,
      `drop trigger objects_words_update on objects`,
      `drop function crm_object_words_sync()`,
      `drop function crm_object_words_rebuild()`,
      `drop function crm_object_search_words_prune(integer, integer)`,
      `drop table object_words`,
      `drop table object_search_words`,
    ],
  },
  {
    migration: '0123',
    before: 'the search words pruned without waiting for the saves writing them',
    sql: [
      `drop function crm_search_words_prune(integer, integer)`,
      `create function crm_search_words_prune() returns integer language sql as $$
        with gone as (delete from search_words s where not exists (select 1 from account_words a where a.word = s.word) returning 1) select count(*)::int from gone
      $$`,
    ],
  },
  {
    migration: '0122',
    before: 'the properties indexed by their place alone',
    sql: [`drop index objects_location_idx`, `create index objects_location_idx on objects (location_id)`],
  },
  {
    migration: '0121',
    before: "the tables vacuumed after PostgreSQL's default share of changed rows",
    sql: VACUUMED_SOONER.map((t) => `alter table ${t} reset (autovacuum_vacuum_scale_factor, autovacuum_vacuum_insert_scale_factor, autovacuum_analyze_scale_factor)`),
  },
  {
    migration: '0119',
    before: 'the viewings and the keys counted on the spot for their unfiltered lists',
    sql: [
      `drop trigger viewings_counts_ins on viewings`,
      `drop trigger viewings_counts_del on viewings`,
      `drop trigger viewings_counts_truncate on viewings`,
      `drop trigger object_keys_counts_ins on object_keys`,
      `drop trigger object_keys_counts_del on object_keys`,
      `drop trigger object_keys_counts_truncate on object_keys`,
      `delete from row_counts where name in ('viewings', 'object_keys')`,
      // 0027's function as it was.
      `create or replace function crm_row_counts_recount() returns void language plpgsql as $$
        begin
          insert into public.row_counts (name, n) values
            ('leads', (select count(*) from public.leads)),
            ('objects', (select count(*) from public.objects)),
            ('alerts', (select count(*) from public.alerts)),
            ('alerts.unread', (select count(*) from public.alerts where readed_on is null))
          on conflict (name) do update set n = excluded.n;
        end $$`,
    ],
  },
  {
    migration: '0118',
    before: "a statement's balances summed again over a scan of every transaction",
    sql: [
      `alter table transactions reset (fillfactor)`,
      // 0114's functions as they were.
      `create or replace function crm_transaction_balances(account_ids integer[]) returns void language plpgsql as $$
        declare a integer;
        begin
          for a in select distinct x from unnest(account_ids) x where x is not null order by 1 loop
            perform pg_advisory_xact_lock(hashtext('transactions_balance'), a);
            update transactions t set balance = s.b
            from (select id, sum(case when type = 'income' then amount when status = 1 or status is null then -amount else 0 end)
                    over (order by transaction_date, id rows between unbounded preceding and current row) as b
                  from transactions where account_id = a) s
            where t.id = s.id and t.balance is distinct from s.b;
          end loop;
        end $$`,
      `create or replace function crm_transaction_balances_updated() returns trigger language plpgsql as $$
        begin
          perform crm_transaction_balances(array(
            select unnest(array[o.account_id, n.account_id]) from old_rows o join new_rows n on n.id = o.id
            where (o.account_id, o.type, o.status, o.amount, o.transaction_date) is distinct from (n.account_id, n.type, n.status, n.amount, n.transaction_date)));
          return null;
        end $$`,
    ],
  },
  {
    migration: '0116',
    before: 'the short lets indexed by reference number only',
    sql: [`drop index objects_short_rent_id_idx`],
  },
  {
    migration: '0114',
    before: "the statement's running balance summed on the spot",
    sql: [
      `drop function crm_transaction_balances_inserted(), crm_transaction_balances_deleted(), crm_transaction_balances_updated() cascade`,
      `drop function crm_transaction_balances(integer[]), crm_transaction_balances_rebuild()`,
      `alter table transactions drop column balance`,
    ],
  },
  {
    migration: '0113',
    before: "the calendar's to-dos read from the index of all activities by date",
    sql: [`drop index activities_todo_date_idx`, `drop index activity_links_first_idx`],
  },
  {
    migration: '0112',
    before: "a record's mail counted on the spot",
    sql: [
      `drop function crm_mail_links_changed() cascade`,
      `drop function crm_mail_messages_changed() cascade`,
      `drop function crm_mail_counts_truncate() cascade`,
      `drop function crm_mail_counts_fold(), crm_mail_counts_rebuild()`,
      `drop table mail_counts, mail_count_changes`,
    ],
  },
];

/** The database as it was before `oldest`: UNDO's migrations from the newest down to it undone. */
async function undoDownTo(q: (text: string) => Promise<unknown>, oldest: string) {
  if (!UNDO.some((u) => u.migration === oldest)) throw new Error(`no undo for migration ${oldest}`);
  for (const u of UNDO) {
    if (u.migration < oldest) break;
    for (const text of u.sql) await q(text);
  }
}

/** A migration's `when` in the journal (its row's created_at once applied). */
function whenOf(migration: string): number {
  const journal = JSON.parse(fs.readFileSync(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.find((e) => e.tag.startsWith(`${migration}_`))!.when;
}

describe('migrations', () => {
  it('vacuum a table a migration rewrote, so index-only scans do not read it again row by row; later ones fill what they add from the rows there', async () => {
    // No background jobs: a job's transaction open beside the migration's vacuum would keep it from marking the rewritten pages.
    const t = await createTestApp({}, undefined, { jobs: false });
    const q = (text: string) => t.pool.query(text);
    // The database as it was before 0029 (and the ones after it), with accounts in it (a few pages).
    await q(`insert into accounts (first_name, last_name, is_client) select 'F' || i, 'Last' || i, true from generate_series(1, 3000) i`);
    await q(`insert into leads (account_id, for_purchase) select id, true from accounts where last_name = 'Last2998'`);
    await q(`drop index if exists accounts_client_last_name_norm_trgm_idx`);
    await q(`drop index if exists accounts_client_last_name_latin_trgm_idx`);
    await q(`alter table accounts drop column last_name_norm`);
    await q(`drop trigger accounts_last_names_sync on accounts`);
    await q(`drop table account_last_names`);
    await q(`drop index leads_account_idx`);
    await q(`create index leads_account_idx on leads (account_id)`);
    // The newest first (each undone before what it builds on).
    await undoDownTo(q, '0112');
    // Before 0111: no index of the accounts by name in each language carrying their search text.
    for (const l of ['en', 'el', 'ru']) await q(`drop index accounts_name_search_${l}_idx`);
    await q(`drop index accounts_long_search_idx`);
    // Before 0110: no index of the viewings in the list's order with its tie.
    await q(`drop index viewings_date_id_idx`);
    // Before 0109: no stored files pending, no holder named on a mailbox's sync lease.
    await q(`drop table stored_files_pending`);
    await q(`alter table mailboxes drop column sync_held_by`);
    // Before 0106: the bookings' sums were summed on the spot.
    await q(`drop function crm_reservation_totals_changed() cascade`);
    await q(`drop function crm_reservation_totals_truncate() cascade`);
    await q(`drop function crm_reservation_total_lines(jsonb), crm_reservation_totals_rebuild(), crm_reservation_totals_fold()`);
    await q(`drop table reservation_totals, reservation_total_deltas`);
    // Before 0104: no Reply-To parsed at sync.
    await q(`alter table mail_messages drop column reply_to`);
    // Before 0103: no words of the open leads, no index of the accounts' words by name in each language.
    await q(`drop trigger accounts_lead_words_update on accounts`);
    await q(`drop table lead_words`);
    await q(`drop function crm_lead_words_sync() cascade`);
    await q(`drop function crm_lead_words_account_sync()`);
    await q(`drop function crm_lead_words_rebuild()`);
    for (const l of ['en', 'el', 'ru']) await q(`drop index account_words_name_${l}_idx`);
    // Before 0098: no deal named on a handover protocol sent for signature.
    await q(`alter table sign_requests drop column deal_id`);
    // Before 0097: no lead threads, no index of the mail by Message-ID.
    await q(`drop table mail_message_leads`);
    await q(`drop index mail_messages_message_id_idx`);
    // Before 0096: no account named as a document's signer.
    await q(`drop index sign_requests_signer_account_idx`);
    await q(`alter table sign_requests drop column signer_account_id`);
    // Before 0095: no leases of work one instance holds at a time.
    await q(`drop table work_leases`);
    // Before 0094: the open leads' index by account without their dates and ids.
    await q(`drop index leads_open_account_idx`);
    await q(`create index leads_open_account_idx on leads (account_id) where coalesce(stage, 0) not in (6, 7)`);
    // Before 0093: no fingerprint of what a document sent for signature prints.
    await q(`alter table sign_requests drop column fill_sha256`);
    // Before 0092: no index of the mail by mailbox and UID.
    await q(`drop index mail_messages_mailbox_uid_idx`);
    // Before 0091: no errors reported by the portals.
    await q(`drop table portal_reports`);
    // Before 0090: no deleted marks on mail nor IDLE leases on mailboxes (undone with 0075's tables below).
    // Before 0089: no mail attachments saved to files; no mailbox signatures nor mail texts among the templates (undone with 0082's and 0075's tables below).
    await q(`drop table mail_attachment_files`);
    // Before 0087: no owner's report links, monthly mails, shared comments nor the site's views per property.
    await q(`drop table owner_report_links, owner_report_settings, owner_report_mailings, owner_report_shares, object_site_views`);
    // Before 0086: no documents sent for signature by link.
    await q(`drop table sign_requests`);
    // Before 0085: the mail links' date indexes with the undated first (undone with 0075's tables below).
    // Before 0083: no invoices, their series' numbers nor the agency's myDATA settings.
    await q(`drop table invoices, invoice_series, invoice_settings`);
    // Before 0082: no document templates of the agency's own.
    await q(`drop table doc_templates`);
    // Before 0081: no portal channels nor their chosen properties.
    await q(`drop table portal_channel_objects, portal_channels`);
    // Before 0080: no portal enquiries made into leads, nor their sources by key.
    await q(`drop table mail_enquiries, enquiry_sources`);
    // Before 0079: no calendar addresses.
    await q(`drop table calendar_feeds`);
    // Before 0078: an Idempotency-Key was not marked as made by its change's commit.
    await q(`alter table idempotent_requests drop column made_at`);
    // Before 0077: no API keys, webhooks or deliveries.
    await q(`drop table webhook_deliveries, webhook_endpoints, api_keys`);
    // Before 0076: no mandates, and no setting that requires one to publish.
    await q(`drop table object_mandate_owners, object_mandates`);
    await q(`alter table site_settings drop column mandate_required_to_publish`);
    // Before 0075: no mailboxes nor their mail, and no index of the accounts' e-mails in lower case.
    await q(`drop table mail_message_objects, mail_message_accounts, mail_attachments, mail_messages, mailboxes`);
    await q(`drop index accounts_emails_lower_idx`);
    await q(`drop function crm_lower_emails(text[])`);
    // Before 0074: no gender on an account, no English title or description on a property (nor in its search text).
    await q(`alter table accounts drop column gender`);
    await q(`create or replace function crm_objects_owner_renamed() returns trigger language plpgsql as $$
      begin
        update objects o set search_text = public.crm_object_search_text(o.reference_number, o.title, o.title_ru, o.address, NEW.display_name) where o.owner_id = NEW.id;
        return null;
      end $$`);
    await q(`create or replace function crm_objects_search_text_row() returns trigger language plpgsql as $$
      begin
        NEW.search_text := public.crm_object_search_text(NEW.reference_number, NEW.title, NEW.title_ru, NEW.address, (select a.display_name from accounts a where a.id = NEW.owner_id));
        return NEW;
      end $$`);
    await q(`drop trigger objects_search_text on objects`);
    await q(`create trigger objects_search_text before insert or update of reference_number, title, title_ru, address, owner_id on objects for each row execute function crm_objects_search_text_row()`);
    await q(`alter table objects drop column title_en, drop column description_en`);
    // Before 0073: a transaction was for the account as a whole (no property), and no sums index.
    await q(`alter table transactions drop column object_id`);
    await q(`drop index transactions_account_sums_idx`);
    // Before 0072: the agency's details without its Greek name, logo, web address, tax office, public address and set-up.
    await q(`alter table site_settings drop column name_el, drop column logo_name, drop column website, drop column tax_office, drop column public_url, drop column setup_done_on`);
    // Before 0070 (undone ahead of 0071: its update of an account fires triggers that read 0071's column):
    // the search text had a dotted word (Α.Ε.) only with its dots; an account named so.
    await q(`create or replace function crm_account_search_text(names text[], emails text[], phones text[], numbers text[]) returns text
      language sql immutable parallel safe as $$
      select concat_ws(' ', public.crm_search_norm(concat_ws(' ', array_to_string(names, ' '), array_to_string(emails, ' '), array_to_string(phones, ' '),
        regexp_replace(array_to_string(phones, ' '), '[^0-9+]', '', 'g'), array_to_string(numbers, ' '))), public.crm_latin_skeleton(array_to_string(names, ' ')))
      $$`);
    await q(`drop function crm_search_undotted(text)`);
    await q(`update accounts set is_company = true, name = 'Κτηματική Α.Ε.' where last_name = 'Last77'`);
    // Before 0071: no drafts (the functions take their triggers with them).
    await q(`drop function crm_drafts_attached(), crm_objects_draft_saved(), crm_leads_draft_saved() cascade`);
    await q(`drop function crm_drafts_filled(text, int[])`);
    await q(`alter table objects drop column draft`);
    await q(`alter table leads drop column draft`);
    // Before 0067: the search form's indexes without the place and the order.
    await q(`drop index objects_sale_place_idx, objects_rent_place_idx, objects_short_rent_place_idx`);
    // Before 0066: the drawn pages' tables were not counted as changed.
    for (const table of ['action_log', 'alerts', 'branches', 'documents', 'files', 'imports', 'lead_objects', 'lead_object_marks', 'locations', 'login_devices', 'object_accounts', 'object_key_loans', 'object_keys', 'payment_accounts', 'shortlist_objects', 'shortlists', 'site_settings', 'transaction_attachments', 'transactions', 'users']) {
      await q(`drop trigger ${table}_data_changed on ${table}`);
    }
    // Before 0065: the deals' totals were summed on the spot.
    await q(`drop function crm_deal_totals_changed() cascade`);
    await q(`drop function crm_deal_totals_truncate() cascade`);
    await q(`drop function crm_deal_totals_add(jsonb), crm_deal_totals_rebuild(), crm_deal_totals_fold()`);
    await q(`drop table deal_totals, deal_total_deltas`);
    // Before 0064: the action log's indexes ended with the date.
    await q(`drop index action_log_date_idx`);
    await q(`create index action_log_date_idx on action_log (date)`);
    // Before 0063: no table's changes were counted (the function takes its triggers with it).
    await q(`drop function crm_data_changed() cascade`);
    await q(`drop function crm_data_version(text[]), crm_data_changes_compact()`);
    await q(`drop table data_changes`);
    // Before 0062: the agents' results were counted on the spot (the functions take their triggers with them).
    for (const f of ['crm_report_objects_changed', 'crm_report_viewings_changed', 'crm_report_leads_changed', 'crm_report_deals_changed', 'crm_report_assignments_changed', 'crm_report_deal_parties_changed']) {
      await q(`drop function ${f}() cascade`);
    }
    await q(`drop function crm_report_assignments_refresh(jsonb), crm_report_zone(text), crm_report_rebuild(), crm_report_fold(), crm_report_refresh(int, int[]), crm_report_cells_add(jsonb, int), crm_report_lines(int, int[]), crm_report_grain_start(smallint, date)`);
    await q(`drop table report_lines, report_cells, report_cell_deltas, report_zone`);
    // Before 0061: no kept matches.
    for (const f of ['crm_match_objects_changed', 'crm_match_leads_changed', 'crm_match_lists_forget']) await q(`drop function ${f}() cascade`);
    await q(`drop function crm_match_changes_job()`);
    await q(`drop table lead_matches, lead_match_lists, object_matches, object_match_lists, match_changes`);
    // Before 0032: payment_accounts without its "listed" flag; a third of the accounts have a row
    // (made when they kept payments, which none of them does any more).
    await q(`drop trigger accounts_payment_account_listed on accounts`);
    await q(`drop index payment_accounts_listed_idx`);
    await q(`alter table payment_accounts drop column listed`);
    await q(`create index payment_accounts_modified_idx on payment_accounts (transactions_modified_on, account_id)`);
    await q(`insert into payment_accounts (account_id) select id from accounts where id % 3 = 0`);
    // Before 0033: no word tables.
    await q(`drop trigger accounts_words_insert on accounts`);
    await q(`drop trigger accounts_words_update on accounts`);
    await q(`drop table account_words`);
    await q(`drop table search_words`);
    // Before 0035: no site settings.
    await q(`drop table site_settings`);
    // Before 0036: no answers kept for retried changes.
    await q(`drop table idempotent_requests`);
    // Before 0037: keys without a lending history; one out with Kostas, one back from him, one
    // received from its owner and never lent, one that only has a description.
    await q(`drop table object_key_loans`);
    // (0039, the loans' version and holder index, comes again with it.)
    // Before 0040: no search form of the comments (it goes first: it is computed from them).
    await q(`drop index viewing_objects_comment_norm_trgm_idx`);
    await q(`alter table viewing_objects drop column comment_norm`);
    // Before 0038: a viewing's objects had a result and no comment.
    await q(`alter table viewing_objects drop column comment`);
    await q(`insert into objects (reference_number) values (9101)`);
    await q(`insert into object_keys (object_id, account_id, received, given_away, description)
      select o.id, k.account_id, k.received::date, k.given_away::date, k.description
      from objects o, (values (1, null, '2026-03-10', 'out'), (1, '2026-03-12', '2026-03-10', 'back'), (null, '2026-02-01', null, 'in'), (null, null, null, 'spare')) as k(account_id, received, given_away, description)
      where o.reference_number = 9101`);
    // Before 0043: a property whose circle is drawn around its hidden point itself, one whose circle is off it.
    await q(`insert into objects (reference_number, latitude, longitude, display_coordinates, map_circle_latitude, map_circle_longitude, map_circle_radius)
      values (9102, 40.58, 22.95, false, 40.58, 22.95, 1000), (9103, 40.58, 22.95, false, 40.59, 22.95, 1000)`);
    // Before 0044: files without their "let go" moment; one never attached, one let go by its deleted record.
    await q(`alter table files drop column detached_on`);
    await q(`insert into files (system_name, user_name, mime, size) values ('pending.pdf', 'pending.pdf', 'application/pdf', 10), ('let-go.pdf', 'let-go.pdf', 'application/pdf', 10)`);
    await q(`insert into action_log (action, entity, entity_id, data) select 'Update', 'File', id, '{"parentType": 2, "parentId": 7}'::jsonb from files where system_name = 'let-go.pdf'`);
    // Before 0045: deals sorted by the final price alone.
    await q(`drop index deals_shown_price_idx`);
    await q(`create index deals_price_idx on deals (price, id)`);
    // Before 0048: the short lets were not indexed by reference number.
    await q(`drop index objects_short_rent_ref_idx`);
    // Before 0051: the unread alerts were not indexed by the record they are about.
    await q(`drop index alerts_unread_entity_idx`);
    // Before 0049: sign-ins kept the name they were made with; one of an account renamed since, one without an account.
    await q(`drop trigger users_name_of_account on users`);
    await q(`drop trigger accounts_rename_sign_ins on accounts`);
    await q(`drop function crm_users_name_of_account()`);
    await q(`drop function crm_accounts_rename_sign_ins()`);
    // Before 0050: tenant links did not name the deal that put them on a property. Three a closed
    // rental made (the action log says so, in the link's own transaction): one left as it was, one a
    // person changed since, one its own deal moved; and one added by hand.
    await q(`alter table object_accounts drop column deal_id, drop column changed_since_deal`);
    await q(`insert into objects (reference_number) values (9104)`);
    await q(`insert into deals (deal_type, deal_stage, object_id) select 1, 5, id from objects where reference_number = 9104`);
    await q(`insert into object_accounts (object_id, account_id, relation, start_date, end_date, created_on)
      select o.id, a.id, 4, '2027-01-01', '2027-12-31', '2026-11-20 10:00+02' from objects o, accounts a where o.reference_number = 9104 and a.last_name in ('Last11', 'Last12', 'Last13', 'Last14')`);
    await q(`insert into action_log (date, action, entity, entity_id, data)
      select '2026-11-20 10:00+02', 'AddContact', 'Object', o.id, jsonb_build_object('accountId', a.id, 'relation', 4) || case when a.last_name = 'Last14' then '{}'::jsonb else jsonb_build_object('dealId', d.id) end
      from objects o join deals d on d.object_id = o.id, accounts a where o.reference_number = 9104 and a.last_name in ('Last11', 'Last12', 'Last13', 'Last14') order by a.last_name`);
    await q(`insert into action_log (date, action, entity, entity_id, data)
      select '2026-11-21 09:00+02', 'UpdateContact', 'Object', o.id, jsonb_build_object('accountId', a.id, 'relation', 4) || case when a.last_name = 'Last13' then jsonb_build_object('dealId', d.id) else '{}'::jsonb end
      from objects o join deals d on d.object_id = o.id, accounts a where o.reference_number = 9104 and a.last_name in ('Last12', 'Last13') order by a.last_name`);
    await q(`insert into users (email, username, account_id) select 'renamed.owner@example.gr', 'Old Name', id from accounts where last_name = 'Last7'`);
    await q(`insert into users (email, username) values ('no.account@example.gr', 'Front desk')`);
    // Before 0052: no notices of the public site's changes; photos not found by their copies' names.
    // (site_settings went above, its trigger with it.)
    for (const trigger of ['objects_public_site_update', 'objects_public_site_insert', 'objects_public_site_delete']) await q(`drop trigger ${trigger} on objects`);
    await q(`drop function crm_public_site_changed()`);
    await q(`drop index files_web_name_idx`);
    await q(`drop index files_thumb_name_idx`);
    // Before 0053: no notices of a place's or a tenant link's change; deleted properties not found by reference number.
    await q(`drop trigger locations_public_site on locations`);
    for (const trigger of ['object_accounts_public_site_insert', 'object_accounts_public_site_update', 'object_accounts_public_site_delete']) await q(`drop trigger ${trigger} on object_accounts`);
    await q(`drop function crm_public_site_places_changed()`);
    await q(`drop function crm_public_site_tenants_changed()`);
    await q(`drop index action_log_object_deleted_ref_idx`);
    // Before 0054: the agents' results read the closed deals and the new listings without their own indexes.
    await q(`drop index deals_closed_end_date_idx`);
    await q(`drop index objects_created_on_id_idx`);
    await q(`create index objects_created_on_id_idx on objects (created_on, id)`);
    // Before 0056: a job's failure had no reason code.
    await q(`alter table jobs drop column last_error_reason`);
    // Before 0056: nationalities written as a country's name or code.
    await q(`update accounts a set nationality = v.n from (values
      ('Last2001', 'Ελλάδα'), ('Last2002', 'GR'), ('Last2003', 'Greece'), ('Last2004', 'Россия'), ('Last2005', 'Ηνωμένο Βασίλειο'),
      ('Last2006', 'Ρωσική'), ('Last2007', 'Κρήτη'), ('Last2008', 'British'), ('Last2009', 'greece'), ('Last2010', null)) v(l, n) where a.last_name = v.l`);
    // Before 0060: no spreadsheet imports.
    await q(`drop table imports`);
    // Before 0059: no account was erased.
    await q(`alter table accounts drop column erased_on`);
    // Before 0058: a shortlist's link could not be withdrawn.
    await q(`alter table shortlists drop column withdrawn_on, drop column withdrawn_by, drop column withdrawn_by_name`);
    // Before 0057: no shortlists.
    await q(`drop table shortlist_objects`);
    await q(`drop table shortlists`);
    // Before 0071 (its triggers gone above with those of 0063 and 0064, which read its column): a
    // property and a lead opened with Add and left as they were, and one of each filled in since.
    await q(`insert into objects (reference_number, created_by, version) select r, (select min(id) from users), v from (values (9105, 1), (9106, 2)) x(r, v)`);
    await q(`insert into leads (created_by, start_date, description) select (select min(id) from users), d::date, t from (values ('2026-01-05', null), ('2026-01-06', 'Wants a flat')) x(d, t)`);
    await q(`delete from drizzle.__drizzle_migrations where created_at >= 1795479485623`);
    await q(`vacuum accounts`);
    const visible = async () => (await q(`select relpages, relallvisible from pg_class where relname = 'accounts'`)).rows[0] as { relpages: number; relallvisible: number };
    expect((await visible()).relallvisible).toBeGreaterThan(10);

    await migrateDb(t.dbUrl);
    const after = await visible();
    expect(after.relpages).toBeGreaterThan(10);
    expect(after.relallvisible).toBe(after.relpages);
    expect((await q(`select count(*)::int as n from accounts where last_name_norm = 'last42'`)).rows[0]).toEqual({ n: 1 });
    // 0031 filled the last-name table from the accounts already there, and keeps it from then on.
    expect((await q(`select (select count(*) from account_last_names)::int as names, (select count(*) from accounts)::int as accounts`)).rows[0]).toEqual({ names: 3000, accounts: 3000 });
    expect((await q(`select count(*)::int as n from account_last_names where names like '%last42%'`)).rows[0]).toEqual({ n: 11 });
    await q(`update accounts set last_name = 'Changed' where last_name = 'Last42'`);
    expect((await q(`select count(*)::int as n from account_last_names where names = 'changed'`)).rows[0]).toEqual({ n: 1 });
    // 0032 listed only the accounts that keep payments, and the flag follows them from then on.
    expect((await q(`select count(*)::int as n, count(*) filter (where listed)::int as listed from payment_accounts`)).rows[0]).toEqual({ n: 1000, listed: 0 });
    await q(`update accounts set has_transactions = true where id in (select min(account_id) from payment_accounts)`);
    await q(`update accounts set has_transactions = true where id % 3 = 1 and id < 30`);
    expect((await q(`select count(*)::int as n, count(*) filter (where listed)::int as listed from payment_accounts`)).rows[0]).toEqual({ n: 1010, listed: 11 });
    // 0033 filled the word tables from the accounts there, and follows them from then on.
    expect((await q(`select count(distinct account_id)::int as n from account_words`)).rows[0]).toEqual({ n: 3000 });
    expect((await q(`select count(*)::int as n from account_words where word = 'last2999'`)).rows[0]).toEqual({ n: 1 });
    expect((await q(`select count(*)::int as n from search_words where word = 'last2999'`)).rows[0]).toEqual({ n: 1 });
    await q(`update accounts set last_name = 'Renamed' where last_name = 'Last420'`);
    expect((await q(`select count(*)::int as n from account_words where word = 'renamed'`)).rows[0]).toEqual({ n: 1 });
    // 0103 gave the open lead there its client's words, and follows them from then on.
    expect((await q(`select count(*)::int as n from lead_words where word = 'last2998'`)).rows[0]).toEqual({ n: 1 });
    await q(`update accounts set last_name = 'Eighth' where last_name = 'Last2998'`);
    expect((await q(`select count(*) filter (where word = 'last2998')::int as was, count(*) filter (where word = 'eighth')::int as now from lead_words`)).rows[0]).toEqual({ was: 0, now: 1 });
    // 0035 made the one row of site settings, empty.
    expect((await q(`select id, phone, email, version from site_settings`)).rows).toEqual([{ id: 1, phone: null, email: null, version: 1 }]);
    // 0055 gave it the viewing sheet's details, not set.
    expect((await q(`select licence, tax_number, sale_fee_percent, rent_fee_months from site_settings`)).rows).toEqual([{ licence: null, tax_number: null, sale_fee_percent: null, rent_fee_months: null }]);
    // 0036 made the table of kept answers, empty.
    expect((await q(`select count(*)::int as n from idempotent_requests`)).rows[0]).toEqual({ n: 0 });
    // 0037 started the history of the keys lent out with their loan, back or not.
    expect(
      (await q(`select k.description, l.account_id, l.given_away::text, l.received::text from object_key_loans l join object_keys k on k.id = l.key_id order by l.id`)).rows,
    ).toEqual([
      { description: 'out', account_id: 1, given_away: '2026-03-10', received: null },
      { description: 'back', account_id: 1, given_away: '2026-03-10', received: '2026-03-12' },
    ]);
    // 0038 gave each object of a viewing an empty comment.
    expect((await q(`select data_type, is_nullable from information_schema.columns where table_name = 'viewing_objects' and column_name = 'comment'`)).rows).toEqual([{ data_type: 'text', is_nullable: 'YES' }]);
    // 0039 gave each loan a version (a correction is guarded by it), 1 for the loans there, and
    // indexed the loans by holder, key and loan (the keys list searched by anyone who held a key).
    expect((await q(`select version from object_key_loans order by id`)).rows).toEqual([{ version: 1 }, { version: 1 }]);
    expect((await q(`select indexname, indexdef from pg_indexes where tablename = 'object_key_loans' and indexname not in ('object_key_loans_pkey', 'object_key_loans_key_idx')`)).rows).toEqual([
      { indexname: 'object_key_loans_holder_idx', indexdef: 'CREATE INDEX object_key_loans_holder_idx ON public.object_key_loans USING btree (account_id, key_id, id)' },
    ]);
    // 0040 keeps each comment's search form (accents and case gone) and indexes it by trigrams.
    await q(`insert into viewings (date_of_viewing) values ('2027-01-14 17:00+02')`);
    await q(`insert into viewing_objects (viewing_id, object_id, comment) select max(v.id), max(o.id), 'Πολύ ΣΚΟΤΕΙΝΌ σπίτι' from viewings v, objects o`);
    expect((await q(`select comment_norm from viewing_objects`)).rows).toEqual([{ comment_norm: 'πολυ σκοτεινο σπιτι' }]);
    // 0119 counted the keys there were, and its trigger the viewing added since.
    expect(
      (await q(`select name, n::int, (case name when 'viewings' then (select count(*) from viewings) else (select count(*) from object_keys) end)::int as rows
        from row_counts where name in ('viewings', 'object_keys') order by name`)).rows,
    ).toEqual([
      { name: 'object_keys', n: expect.any(Number), rows: expect.any(Number) },
      { name: 'viewings', n: 1, rows: 1 },
    ]);
    const keys = (await q(`select n::int, (select count(*) from object_keys)::int as rows from row_counts where name = 'object_keys'`)).rows[0] as { n: number; rows: number };
    expect(keys.rows).toBeGreaterThan(0);
    expect(keys.n).toBe(keys.rows);
    expect((await q(`select indexdef from pg_indexes where indexname = 'viewing_objects_comment_norm_trgm_idx'`)).rows[0].indexdef).toContain('gin_trgm_ops');
    // 0122 indexes the properties by place and id (a place's page read in order from the index).
    expect((await q(`select indexdef from pg_indexes where indexname = 'objects_location_idx'`)).rows).toEqual([
      { indexdef: 'CREATE INDEX objects_location_idx ON public.objects USING btree (location_id, id)' },
    ]);
    // 0121 has the tables read by index-only scans vacuumed after 2 % of their rows changed or were added.
    expect(
      (await q(`select relname, array(select o from unnest(reloptions) o where o like 'autovacuum%') as reloptions from pg_class where relkind = 'r' and relname in ('${VACUUMED_SOONER.join("', '")}') order by relname collate "C"`)).rows,
    ).toEqual(
      [...VACUUMED_SOONER].sort().map((relname) => ({
        relname,
        reloptions: ['autovacuum_vacuum_scale_factor=0.02', 'autovacuum_vacuum_insert_scale_factor=0.02', 'autovacuum_analyze_scale_factor=0.05'],
      })),
    );
    // 0043 moved the circle drawn on its hidden point off it (a quarter to half of the radius away), and left the other.
    const circles = (await q(`select reference_number, crm_circle_hides_point(latitude, longitude, map_circle_latitude, map_circle_longitude, map_circle_radius) as hides,
      sqrt(power((map_circle_latitude - latitude) * 111320, 2) + power((map_circle_longitude - longitude) * 111320 * cos(radians(latitude)), 2)) as metres, map_circle_latitude
      from objects where reference_number in (9102, 9103) order by reference_number`)).rows as { hides: boolean; metres: number; map_circle_latitude: number }[];
    expect(circles.map((c) => c.hides)).toEqual([true, true]);
    expect(circles[0]!.metres).toBeGreaterThanOrEqual(249);
    expect(circles[0]!.metres).toBeLessThanOrEqual(501);
    expect(circles[1]!.map_circle_latitude).toBe(40.59);
    // 0044 marked the file its record let go, not the upload still waiting to be attached.
    expect((await q(`select system_name, detached_on is not null as detached from files where system_name in ('pending.pdf', 'let-go.pdf') order by system_name`)).rows).toEqual([
      { system_name: 'let-go.pdf', detached: true },
      { system_name: 'pending.pdf', detached: false },
    ]);
    // 0045 indexes deals by the price the list shows, in place of the final price alone.
    expect((await q(`select indexname from pg_indexes where tablename = 'deals' and indexname like 'deals_%price%' order by 1`)).rows).toEqual([{ indexname: 'deals_shown_price_idx' }]);
    // 0048 indexes the short lets by reference number (the availability grid's pages).
    expect((await q(`select indexdef from pg_indexes where indexname = 'objects_short_rent_ref_idx'`)).rows).toEqual([
      { indexdef: 'CREATE INDEX objects_short_rent_ref_idx ON public.objects USING btree (reference_number) WHERE for_short_rent' },
    ]);
    // 0049 gave the sign-in its account's name, and it follows the account from then on; a sign-in
    // without an account keeps its own.
    const names = async () => (await q(`select email, username from users where email in ('renamed.owner@example.gr', 'no.account@example.gr') order by email`)).rows;
    expect(await names()).toEqual([
      { email: 'no.account@example.gr', username: 'Front desk' },
      { email: 'renamed.owner@example.gr', username: 'Last7 F7' },
    ]);
    await q(`update accounts set last_name = 'Seventh' where last_name = 'Last7'`);
    expect((await names())[1]).toEqual({ email: 'renamed.owner@example.gr', username: 'Seventh F7' });
    // 0050 named the deal of each tenant link it made, and whether a person (or another deal) changed it since.
    expect(
      (await q(`select a.last_name, l.deal_id = d.id as of_deal, l.changed_since_deal from object_accounts l join accounts a on a.id = l.account_id join deals d on d.object_id = l.object_id
        join objects o on o.id = l.object_id where o.reference_number = 9104 order by a.last_name`)).rows,
    ).toEqual([
      { last_name: 'Last11', of_deal: true, changed_since_deal: false },
      { last_name: 'Last12', of_deal: true, changed_since_deal: true },
      { last_name: 'Last13', of_deal: true, changed_since_deal: false },
      { last_name: 'Last14', of_deal: null, changed_since_deal: false },
    ]);
    // 0051 indexes the unread alerts by their record (a refused publish replaces its property's).
    expect((await q(`select indexdef from pg_indexes where indexname = 'alerts_unread_entity_idx'`)).rows).toEqual([
      { indexdef: 'CREATE INDEX alerts_unread_entity_idx ON public.alerts USING btree (entity, entity_id) WHERE (readed_on IS NULL)' },
    ]);
    // 0052 tells every listening connection, once the change commits, that a published property or the site's details changed;
    // 0053 that a place a published property is in, or one of its tenant links, changed; 0081 that a portal channel or its chosen properties changed.
    expect((await q(`select tgname from pg_trigger where tgname like '%public_site%' order by 1`)).rows.map((r: { tgname: string }) => r.tgname)).toEqual([
      'locations_public_site',
      'object_accounts_public_site_delete',
      'object_accounts_public_site_insert',
      'object_accounts_public_site_update',
      'objects_public_site_delete',
      'objects_public_site_insert',
      'objects_public_site_update',
      'portal_channel_objects_public_site',
      'portal_channels_public_site',
      'site_settings_public_site',
    ]);
    expect((await q(`select indexname from pg_indexes where tablename = 'files' and indexname in ('files_web_name_idx', 'files_thumb_name_idx') order by 1`)).rows).toEqual([
      { indexname: 'files_thumb_name_idx' },
      { indexname: 'files_web_name_idx' },
    ]);
    // 0053 finds a deleted property's record by its reference number.
    expect((await q(`select indexdef from pg_indexes where indexname = 'action_log_object_deleted_ref_idx'`)).rows).toEqual([
      { indexdef: "CREATE INDEX action_log_object_deleted_ref_idx ON public.action_log USING btree (((data ->> 'referenceNumber'::text))) WHERE ((entity = 'Object'::text) AND (action = 'Delete'::text))" },
    ]);
    // 0054 indexes the closed deals by closing date, and the new listings with who took them on.
    expect((await q(`select indexdef from pg_indexes where indexname in ('deals_closed_end_date_idx', 'objects_created_on_id_idx') order by 1`)).rows).toEqual([
      { indexdef: 'CREATE INDEX deals_closed_end_date_idx ON public.deals USING btree (end_date) WHERE (deal_stage = 5)' },
      { indexdef: 'CREATE INDEX objects_created_on_id_idx ON public.objects USING btree (created_on, id) INCLUDE (created_by_account_id)' },
    ]);
    // 0056 writes a nationality that was exactly a country's name or code as the office does, in Greek; the rest as typed.
    expect((await q(`select last_name, nationality from accounts where last_name ~ '^Last20(0[1-9]|10)$' order by last_name`)).rows.map((r: { nationality: string | null }) => r.nationality)).toEqual([
      'Ελληνική', 'Ελληνική', 'Ελληνική', 'Ρωσική', 'Βρετανική', 'Ρωσική', 'Κρήτη', 'British', 'greece', null,
    ]);
    // 0056 keeps why a job failed.
    expect((await q(`select data_type from information_schema.columns where table_name = 'jobs' and column_name = 'last_error_reason'`)).rows).toEqual([{ data_type: 'text' }]);
    // 0057 made the shortlists, a link's token unique by its hash.
    expect((await q(`select indexdef from pg_indexes where indexname = 'shortlists_token_hash_idx'`)).rows).toHaveLength(1);
    // 0058 notes when and by whom a shortlist's link was withdrawn.
    expect((await q(`select column_name from information_schema.columns where table_name = 'shortlists' and column_name like 'withdrawn%' order by column_name`)).rows.map((r: { column_name: string }) => r.column_name)).toEqual(['withdrawn_by', 'withdrawn_by_name', 'withdrawn_on']);
    // 0059 dates an account's erasure.
    expect((await q(`select data_type from information_schema.columns where table_name = 'accounts' and column_name = 'erased_on'`)).rows).toEqual([{ data_type: 'timestamp with time zone' }]);
    // 0060 keeps the spreadsheets brought in, an upload's token unique by its hash.
    expect((await q(`select indexdef from pg_indexes where indexname = 'imports_token_hash_idx'`)).rows).toHaveLength(1);
    // 0070 computed the search text again of the account with a dotted word: it is found without the dots, from the word table too.
    expect((await q(`select a.search_text like '% α.ε. % a.e. αε ae' as undotted, exists (select 1 from account_words w where w.account_id = a.id and w.word = 'αε') as word from accounts a where a.last_name = 'Last77'`)).rows).toEqual([
      { undotted: true, word: true },
    ]);
    // 0071 made drafts of what was left as Add made it (a property made by no one, 9101, is data brought in), and keeps them so.
    expect((await q(`select reference_number, draft from objects where reference_number in (9101, 9105, 9106) order by 1`)).rows).toEqual([
      { reference_number: 9101, draft: false },
      { reference_number: 9105, draft: true },
      { reference_number: 9106, draft: false },
    ]);
    expect((await q(`select start_date::text, draft from leads where created_by is not null order by start_date`)).rows).toEqual([
      { start_date: '2026-01-05', draft: true },
      { start_date: '2026-01-06', draft: false },
    ]);
    // A note about the draft lead makes it a lead like any other.
    await q(`with a as (insert into activities (description) values ('Called back') returning id)
      insert into activity_links (activity_id, entity, entity_id) select a.id, 4, l.id from a, leads l where l.start_date = '2026-01-05'`);
    expect((await q(`select draft from leads where start_date = '2026-01-05'`)).rows).toEqual([{ draft: false }]);
    // Applied once: a second start changes nothing.
    await migrateDb(t.dbUrl);
    await t.app.close();
  });
  it('writes again the search text and words of the properties numbered from 10000 stored before 0126, and only theirs', async () => {
    const t = await createTestApp({}, undefined, { jobs: false });
    const q = (text: string) => t.pool.query(text);
    await undoDownTo(q, '0126');
    // Saved before 0126: 12345 stored as "1234 12345", 42 as "0042 42".
    await q(`insert into objects (title, reference_number) values ('Loft', 12345), ('Studio', 42), ('Plot of 2494 m²', 24949)`);
    const stored = async () => (await q(`select o.reference_number as ref, split_part(o.search_text, ' ', 1) as first, o.xmin::text as xmin,
      array(select w.word from object_words w where w.object_id = o.id and w.word ~ '^[0-9]+$' order by w.word) as numbers
      from objects o where o.reference_number in (42, 12345, 24949) order by 1`)).rows as { ref: number; first: string; xmin: string; numbers: string[] }[];
    const before = await stored();
    expect(before.map(({ xmin: _, ...r }) => r)).toEqual([
      { ref: 42, first: '0042', numbers: ['0042', '42'] },
      { ref: 12345, first: '1234', numbers: ['1234', '12345'] },
      { ref: 24949, first: '2494', numbers: ['2494', '24949'] },
    ]);
    await q(`delete from drizzle.__drizzle_migrations where created_at >= ${whenOf('0126')}`);
    await migrateDb(t.dbUrl);
    const after = await stored();
    expect(after.map(({ xmin: _, ...r }) => r)).toEqual([
      { ref: 42, first: '0042', numbers: ['0042', '42'] },
      { ref: 12345, first: '12345', numbers: ['12345'] },
      // Its area is 2494: the word stays.
      { ref: 24949, first: '24949', numbers: ['2494', '24949'] },
    ]);
    // The property below 10000 was not written again.
    expect(after[0]!.xmin).toBe(before[0]!.xmin);
    // The words trigger the migration turned off for its rewrite is on again.
    expect((await q(`select tgenabled from pg_trigger where tgname = 'objects_words_update'`) as { rows: { tgenabled: string }[] }).rows).toEqual([{ tgenabled: 'O' }]);
    await t.app.close();
  });

  it("counts the mail stored before 0112 as it is counted on the spot, and keeps the running balance of the statements stored before 0114", async () => {
    // No background jobs: a job's transaction open beside the migration's vacuum would keep it from marking the rewritten pages.
    const t = await createTestApp({}, undefined, { jobs: false });
    const q = (text: string) => t.pool.query(text);
    await q(`insert into mailboxes (name, address, imap_host, imap_port, imap_tls, imap_user, imap_password)
      select 'Box ' || g, 'box' || g || '@agency.test', 'h', 993, true, 'u', 'v1:x' from generate_series(1, 2) g`);
    await q(`insert into accounts (first_name, last_name, is_client) select 'F' || g, 'Mail' || g, true from generate_series(1, 3) g`);
    await q(`insert into objects (title) values ('Flat 1'), ('Flat 2')`);
    await q(`insert into leads (account_id, for_purchase) select id, true from accounts where last_name = 'Mail1'`);
    // 12 messages in two mailboxes, every third marked deleted, linked to accounts, properties and the lead.
    await q(`insert into mail_messages (mailbox_id, message_id, sent_on, deleted_on)
      select (select min(id) from mailboxes) + g % 2, '<pre' || g || '@example.gr>', now(), case when g % 3 = 0 then now() end from generate_series(1, 12) g`);
    await q(`insert into mail_message_accounts (message_id, account_id, sent_on) select m.id, a.id, now() from mail_messages m, accounts a
      where a.last_name like 'Mail%' and (m.id + a.id) % 2 = 0`);
    await q(`insert into mail_message_objects (message_id, object_id, sent_on) select m.id, o.id, now() from mail_messages m, objects o where o.title like 'Flat%' and m.id % 4 <> 0`);
    await q(`insert into mail_message_leads (message_id, lead_id, sent_on) select m.id, l.id, now() from mail_messages m, leads l where m.id % 5 <> 0`);
    // The database as it was before 0112, and the migrations from it on not applied yet.
    await undoDownTo(q, '0112');
    // Rows of a statement before 0114, two on the same minute (the id orders them), an unpaid expense left out of the balance.
    await q(`insert into transactions (account_id, type, amount, transaction_date, status)
      select (select min(id) from accounts where last_name = 'Mail1'), x.type, x.amount, x.at::timestamptz, x.status
      from (values ('income', 500, '2026-01-02 10:00+02', null), ('expense', 120, '2026-01-01 10:00+02', 1), ('expense', 80, '2026-01-02 10:00+02', 0), ('expense', 30, '2026-01-02 10:00+02', 1)) x(type, amount, at, status)`);
    await q(`delete from drizzle.__drizzle_migrations where created_at >= ${whenOf('0112')}`);
    await migrateDb(t.dbUrl);
    // 0114 kept each row's running balance, in date then id order.
    expect((await q(`select amount::text, balance::text from transactions order by transaction_date, id`)).rows).toEqual([
      { amount: '120.00', balance: '-120.00' },
      { amount: '500.00', balance: '380.00' },
      { amount: '80.00', balance: '380.00' },
      { amount: '30.00', balance: '350.00' },
    ]);
    const onTheSpot = (
      await q(`select kind, record_id, mailbox_id, n from (
        select 0 as kind, l.account_id as record_id, m.mailbox_id, count(*)::int as n from mail_message_accounts l join mail_messages m on m.id = l.message_id and m.deleted_on is null group by 2, 3
        union all select 1, l.object_id, m.mailbox_id, count(*)::int from mail_message_objects l join mail_messages m on m.id = l.message_id and m.deleted_on is null group by 2, 3
        union all select 2, l.lead_id, m.mailbox_id, count(*)::int from mail_message_leads l join mail_messages m on m.id = l.message_id and m.deleted_on is null group by 2, 3) x order by 1, 2, 3`)
    ).rows;
    expect(onTheSpot.length).toBeGreaterThan(6);
    expect((await q(`select kind, record_id, mailbox_id, n from mail_counts order by 1, 2, 3`)).rows).toEqual(onTheSpot);
    expect((await q(`select count(*)::int as n from mail_count_changes`)).rows).toEqual([{ n: 0 }]);
    await t.app.close();
  });
});
