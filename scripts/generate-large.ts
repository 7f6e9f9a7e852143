// A large agency for the benchmark: 100k accounts, 1M activities with their links, assignments;
// 50k objects with 150k photo rows, 100k object–account links and their keys (each with 1-5 loans);
// 30k mandates, a mailbox of 12.5k messages (one account with 2,000), 20 API keys, 3 webhooks with
// 100k deliveries (those of an agency generated before them are added in place).
//
//   node --import tsx scripts/generate-large.ts [--accounts 100000] [--activities 1000000] [--objects 50000] [--force]
//
// The database is DATABASE_URL, or an embedded PostgreSQL under DATA_DIR (default ./data/bench).
// Everything is generated inside PostgreSQL (INSERT ... SELECT generate_series, names picked from
// arrays by a hash of the row number), in one transaction, with the secondary indexes dropped
// and rebuilt in bulk; a marker table makes a second run with the same sizes a no-op.
// The generator owns the database it fills: it deletes every account and activity, and it refuses
// a database holding accounts it did not generate.
import { createHash } from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { migrateDb } from '../apps/server/src/db/migrate.ts';
import { connectDb } from '../apps/server/src/db/client.ts';
import { seedBase } from '../apps/server/src/db/seed/index.ts';
import { lockDataDir } from '../apps/server/src/lib/data-dir-lock.ts';
import { sealSecret } from '../apps/server/src/lib/secret-box.ts';
import {
  ENGLISH_FEMALE, ENGLISH_MALE, ENGLISH_SURNAMES, GERMAN_FEMALE, GERMAN_MALE, GERMAN_SURNAMES, GREEK_FEMALE, GREEK_MALE,
  GREEK_PLACES, GREEK_STREETS, GREEK_SURNAMES, RUSSIAN_FEMALE, RUSSIAN_MALE, RUSSIAN_SURNAMES,
} from '../apps/server/src/db/seed/demo-names.ts';
import { createRng } from '../apps/server/src/db/seed/demo-time.ts';
import { AREAS, PROPERTIES, clientActivity, clientNote, ownerActivity, ownerNote, type Ctx } from '../apps/server/src/db/seed/demo-texts.ts';
import { SPECIALTY_COLUMNS } from '../apps/server/src/db/schema/records.ts';

export type LargeSizes = { accounts: number; activities: number; objects: number; leads: number; viewings: number; transactions: number; deals: number; reservations: number };
export const FULL_SIZES: LargeSizes = { accounts: 100_000, activities: 1_000_000, objects: 50_000, leads: 100_000, viewings: 20_000, transactions: 300_000, deals: 20_000, reservations: 20_000 };
type Log = (line: string) => void;

/** Tables the generator fills; their secondary (non-unique) indexes are rebuilt after the load. */
const TABLES = ['report_lines', 'report_cells', 'alerts', 'accounts', 'account_last_names', 'account_words', 'search_words', 'lead_words', 'object_words', 'object_search_words', 'activities', 'activity_links', 'assignments', 'objects', 'object_accounts', 'object_keys', 'object_key_loans', 'files', 'leads', 'lead_objects', 'viewings', 'viewing_objects', 'action_log', 'documents', 'transactions', 'payment_accounts', 'deals', 'deal_parties', 'reservations',
  'object_mandates', 'object_mandate_owners', 'mailboxes', 'mail_messages', 'mail_attachments', 'mail_message_accounts', 'mail_message_objects', 'mail_counts', 'api_keys', 'webhook_endpoints', 'webhook_deliveries'];
const AGENCY_DOMAIN = 'thermaikos-homes.gr';

export function parseSizes(argv: string[]): LargeSizes & { force: boolean } {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  };
  const num = (name: string, dflt: number) => {
    const v = arg(name);
    if (v === undefined) return dflt;
    const n = Number(v.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < 100) throw new Error(`--${name} must be a whole number of at least 100 (got ${v})`);
    return n;
  };
  return {
    accounts: num('accounts', FULL_SIZES.accounts),
    activities: num('activities', FULL_SIZES.activities),
    objects: num('objects', FULL_SIZES.objects),
    leads: num('leads', FULL_SIZES.leads),
    viewings: num('viewings', FULL_SIZES.viewings),
    transactions: num('transactions', FULL_SIZES.transactions),
    deals: num('deals', FULL_SIZES.deals),
    reservations: num('reservations', FULL_SIZES.reservations),
    force: argv.includes('--force'),
  };
}

/**
 * The benchmark's database: DATABASE_URL, or an embedded server under `dataDir` (locked for this
 * process). Migrated and seeded with the base texts, like a fresh start of the app.
 */
export async function openBenchDatabase(opts: { dataDir: string; log: Log }): Promise<{ url: string; describe: string; stop: () => Promise<void> }> {
  let url = process.env.DATABASE_URL;
  let stop = async () => {};
  let describe = 'DATABASE_URL';
  if (!url) {
    const release = lockDataDir(opts.dataDir);
    try {
      const embedded = await startEmbeddedPostgres(path.join(opts.dataDir, 'postgres'), { log: opts.log });
      url = embedded.url;
      describe = `embedded PostgreSQL on 127.0.0.1:${embedded.port} (data in ${path.join(opts.dataDir, 'postgres')})`;
      stop = async () => {
        await embedded.stop();
        release();
      };
    } catch (e) {
      release();
      throw e;
    }
  }
  try {
    await migrateDb(url);
    const handle = connectDb(url, 2);
    await seedBase(handle.db);
    await handle.close();
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, describe, stop };
}

// ---- SQL helpers -------------------------------------------------------------------------------

/** A uniform number in [0, 1) from the row number `v`; `k` makes independent streams. */
const U = (k: number, v = 'g') => `((hashint4(${v} * 37 + ${k}) & 2147483647)::float8 / 2147483648.0)`;
/** Picks from an array parameter by a uniform number. */
const pick = (param: string, n: number, u: string) => `(${param})[1 + floor(${u} * ${n})::int]`;
/** n digits, from a hash. */
const digits = (k: number, n: number, v = 'g') => `lpad(((hashint4(${v} * 37 + ${k}) & 2147483647) % ${10 ** n})::text, ${n}, '0')`;
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

type Ctx2 = { c: pg.Client; sizes: LargeSizes; employees: number; sources: number; users: number[]; log: Log };
type Step = { name: string; run: (ctx: Ctx2) => Promise<number> };

/** Texts staff write (from the demo's own templates), for notes and activity descriptions. */
function sampleTexts() {
  const rng = createRng(77);
  const ctx = (): Ctx => ({ rng, area: rng.pick(AREAS), prop: rng.pick(PROPERTIES), price: Math.round(rng.int(60000, 700000) / 5000) * 5000, year: 2026 });
  const descriptions: string[] = [];
  const ownerNotes: string[] = [];
  const clientNotes: string[] = [];
  for (let i = 0; i < 400; i++) {
    const lang = rng.chance(0.75) ? 'el' : 'en';
    descriptions.push((rng.chance(0.5) ? clientActivity : ownerActivity)(ctx(), lang, rng.chance(0.15)).text);
  }
  for (let i = 0; i < 150; i++) {
    const lang = rng.chance(0.75) ? 'el' : 'en';
    ownerNotes.push(ownerNote(ctx(), rng.chance(0.3), lang));
    clientNotes.push(clientNote(ctx(), rng.weighted([[1, 55], [2, 20], [3, 10], [4, 8], [5, 7]] as const), lang, rng.chance(0.3)));
  }
  return { descriptions, ownerNotes, clientNotes };
}

const SOURCE_NAMES = ['Spitogatos.gr', 'XE.gr', 'Facebook', 'Instagram', `Ιστοσελίδα ${AGENCY_DOMAIN}`, 'Επίσκεψη στο γραφείο', 'Σύσταση πελάτη', 'Πινακίδα στο ακίνητο', 'Google Ads', 'Cian.ru', 'Rightmove Overseas', 'Imot.bg'];
const SOURCE_TYPES = ['Property portal', 'Classifieds portal', 'Social media', 'Social media', 'Own website', 'Walk-in', 'Referral', 'Signboard', 'Advertising', 'Property portal (Russia)', 'Property portal (UK)', 'Property portal (Bulgaria)'];
/** Company names are "<surname> <form>", the form fitting the kind. */
const COMPANY_FORMS: Record<string, [string, string]> = {
  own: ['Α.Ε.', '& ΣΙΑ Ο.Ε.'],
  pro: ['Τεχνική Ι.Κ.Ε.', '& Συνεργάτες'],
  pre: ['Ακίνητα Ε.Π.Ε.', 'Real Estate'],
  ptr: ['Travel', 'Hotels'],
};

const accountsStep: Step = {
  name: 'accounts',
  run: async ({ c, sizes, employees: E, sources: S, users }) => {
    const { ownerNotes, clientNotes } = sampleTexts();
    const places = GREEK_PLACES.flatMap(([city, codes]) => codes.map((code) => [city, code] as const));
    const latinSur = [...ENGLISH_SURNAMES, ...GERMAN_SURNAMES];
    const latinM = [...ENGLISH_MALE, ...GERMAN_MALE];
    const latinF = [...ENGLISH_FEMALE, ...GERMAN_FEMALE];
    const params: unknown[] = [];
    const p = (v: string[] | number[]) => `$${params.push(v)}::${typeof v[0] === 'number' ? 'int' : 'text'}[]`;
    const A = {
      grSurM: p(GREEK_SURNAMES.map((s) => s[0])), grSurF: p(GREEK_SURNAMES.map((s) => s[1])),
      grSurMLat: p(GREEK_SURNAMES.map((s) => s[2])), grSurFLat: p(GREEK_SURNAMES.map((s) => s[3])),
      grM: p(GREEK_MALE.map((f) => f[0])), grMLat: p(GREEK_MALE.map((f) => f[1])),
      grF: p(GREEK_FEMALE.map((f) => f[0])), grFLat: p(GREEK_FEMALE.map((f) => f[1])),
      ruSurM: p(RUSSIAN_SURNAMES.map((s) => s[0])), ruSurF: p(RUSSIAN_SURNAMES.map((s) => s[1])),
      ruSurMLat: p(RUSSIAN_SURNAMES.map((s) => s[2])), ruSurFLat: p(RUSSIAN_SURNAMES.map((s) => s[3])),
      ruM: p(RUSSIAN_MALE.map((f) => f[0])), ruMLat: p(RUSSIAN_MALE.map((f) => f[1])),
      ruF: p(RUSSIAN_FEMALE.map((f) => f[0])), ruFLat: p(RUSSIAN_FEMALE.map((f) => f[1])),
      laSur: p(latinSur), laM: p(latinM), laF: p(latinF),
      cities: p(places.map((x) => x[0])), codes: p(places.map((x) => x[1])), streets: p([...GREEK_STREETS]),
      ownerNotes: p(ownerNotes), clientNotes: p(clientNotes), users: p(users), srcNames: p(SOURCE_NAMES), srcTypes: p(SOURCE_TYPES),
    };
    const nGS = GREEK_SURNAMES.length, nRS = RUSSIAN_SURNAMES.length;
    const flagCols = Object.values(SPECIALTY_COLUMNS);
    const n = sizes.accounts;
    // x: the row's dice; y: its names. Kinds: emp, src, own, cli, oc (owner and client), pro, pre (real-estate partner), ptr (tourism partner).
    const sqlText = `
      insert into accounts (id, first_name, last_name, middle_name, name, first_name_eng, last_name_eng,
        is_owner, is_client, is_employe, is_source, is_professional, is_partner_real_estate, is_partner_tourism,
        is_company, is_individual, ${flagCols.join(', ')},
        purchase_budget_range_min, purchase_budget_range_max, language, country, nationality, company_type,
        emails, phones, passport_number, tax_number, city, postcode, address, role, branch_id, notes,
        is_client_date, is_owner_date, source_id, service, created_on, created_by, modified_on, modified_by, start_date)
      select g, y.first_name, y.last_name, y.middle_name, y.name, y.first_name_eng, y.last_name_eng,
        x.kind in ('own', 'oc'), x.kind in ('cli', 'oc'), x.kind = 'emp', x.kind = 'src', x.kind = 'pro', x.kind = 'pre', x.kind = 'ptr',
        case when x.company then true when x.kind in ('src', 'pro', 'pre', 'ptr') then false end,
        case when x.kind in ('pro', 'pre', 'ptr') then not x.company end,
        ${flagCols.map((_, i) => `(x.kind = 'pro' and (x.sp = ${i} or x.sp2 = ${i}))`).join(',\n        ')},
        case when x.kind in ('cli', 'oc') and x.service = 1 and ${U(40)} < 0.7 then round(y.budget * 0.7 / 5000) * 5000 end,
        case when x.kind in ('cli', 'oc') and x.service in (1, 2, 3) then y.budget end,
        case when ${U(41)} < 0.6 then case x.nat when 'gr' then 'el' when 'ru' then 'ru' else 'en' end end,
        case when ${U(41)} < 0.6 then case x.nat when 'gr' then 'Ελλάδα' when 'ru' then 'Ρωσία' else 'Ηνωμένο Βασίλειο' end end,
        case when ${U(41)} < 0.6 then case x.nat when 'gr' then 'Ελληνική' when 'ru' then 'Ρωσική' else 'Βρετανική' end end,
        case when x.kind = 'src' then (${A.srcTypes})[1 + (g - ${E} - 1) % ${SOURCE_TYPES.length}]
             when x.company then case x.kind when 'pro' then 'Technical firm' when 'pre' then 'Real estate agency' when 'ptr' then 'Travel agency' else 'Property owner company' end end,
        case when x.kind = 'src' then '{}'::text[]
             when x.kind = 'emp' then array[lower(left(y.first_lat, 1) || '.' || y.last_lat) || '@${AGENCY_DOMAIN}']
             when ${U(42)} < 0.9 then array[lower(left(y.first_lat, 1) || '.' || y.last_lat) || g || '@' ||
               case x.nat when 'ru' then 'mail.ru' when 'la' then 'gmail.com' else (array['gmail.com', 'yahoo.gr', 'hotmail.com', 'otenet.gr'])[1 + floor(${U(43)} * 4)::int] end]
             else '{}'::text[] end,
        case when x.kind = 'src' then '{}'::text[]
             when x.nat = 'ru' then array['+7 9' || ${digits(44, 2)} || ' ' || ${digits(45, 3)} || '-' || ${digits(46, 2)} || '-' || ${digits(47, 2)}]
             when ${U(48)} < 0.2 then array['+30 69' || ${digits(49, 1)} || ' ' || ${digits(50, 3)} || ' ' || ${digits(51, 4)}, '+30 2310 ' || ${digits(52, 6)}]
             else array['+30 69' || ${digits(49, 1)} || ' ' || ${digits(50, 3)} || ' ' || ${digits(51, 4)}] end,
        case when x.kind <> 'src' and ${U(53)} < 0.2 then case x.nat when 'ru' then '7' || ${digits(54, 1)} || ' ' || ${digits(55, 7)} else 'A' || chr(75 + floor(${U(56)} * 10)::int) || ${digits(55, 7)} end end,
        case when x.kind <> 'src' and ${U(57)} < 0.55 then ${digits(58, 9)} end,
        case when x.kind <> 'src' then x.city end,
        case when x.kind <> 'src' then x.code end,
        case when x.kind <> 'src' then ${pick(A.streets, GREEK_STREETS.length, U(59))} || ' ' || (1 + floor(${U(60)} * 180)::int) end,
        case when x.kind = 'emp' then case when g = 1 then 'admin' else 'employee' end end,
        case when x.kind = 'emp' and g % 10 = 5 then 1 end,
        case when ${U(61)} >= 0.3 then null when x.kind in ('cli', 'oc') then ${pick(A.clientNotes, clientNotes.length, U(62))}
             when x.kind = 'own' then ${pick(A.ownerNotes, ownerNotes.length, U(62))} end,
        case when x.kind in ('cli', 'oc') then x.created end,
        case when x.kind in ('own', 'oc') then x.created end,
        case when x.kind in ('cli', 'oc') then ${E} + 1 + floor(${U(63)} * ${S})::int end,
        case when x.kind in ('cli', 'oc') then x.service end,
        x.created, x.by,
        case when ${U(64)} < 0.5 then x.created + (now() - x.created) * ${U(65)} else x.created end, x.by,
        case when x.kind = 'emp' then (x.created - interval '5 years')::date end
      from generate_series(1, ${n}) g
      cross join lateral (select
        case when g <= ${E} then 'emp' when g <= ${E + S} then 'src' else
          case when ${U(1)} < 0.38 then 'own' when ${U(1)} < 0.83 then 'cli' when ${U(1)} < 0.88 then 'oc'
               when ${U(1)} < 0.95 then 'pro' when ${U(1)} < 0.98 then 'pre' else 'ptr' end end as kind,
        case when ${U(2)} < 0.74 then 'gr' when ${U(2)} < 0.9 then 'ru' else 'la' end as nat,
        ${U(3)} < 0.5 as female,
        case when g <= ${E} then false when g <= ${E + S} then true when ${U(1)} < 0.38 then ${U(4)} < 0.03
             when ${U(1)} < 0.88 then false when ${U(1)} < 0.95 then ${U(4)} < 0.3 else ${U(4)} < 0.7 end as company,
        floor(${U(5)} * ${flagCols.length})::int as sp,
        case when ${U(6)} < 0.2 then floor(${U(7)} * ${flagCols.length})::int else -1 end as sp2,
        case when ${U(8)} < 0.55 then 1 when ${U(8)} < 0.75 then 2 when ${U(8)} < 0.85 then 3 when ${U(8)} < 0.93 then 4 else 5 end as service,
        1 + floor(${U(9)} * ${nGS})::int as gs, 1 + floor(${U(10)} * ${nRS})::int as rs, 1 + floor(${U(11)} * ${latinSur.length})::int as ls,
        ${U(12)} as fu,
        ${pick(A.cities, places.length, U(13))} as city, ${pick(A.codes, places.length, U(13))} as code,
        case when g <= ${E + S} then now() - make_interval(days => 1095 + floor(${U(14)} * 30)::int)
             else now() - make_interval(secs => ${U(14)} * 1095 * 86400) end as created,
        ${pick(A.users, users.length, U(15))} as by
      ) x
      cross join lateral (select
        case when x.company then null when x.nat = 'gr' then case when x.female then (${A.grF})[1 + floor(x.fu * ${GREEK_FEMALE.length})::int] else (${A.grM})[1 + floor(x.fu * ${GREEK_MALE.length})::int] end
             when x.nat = 'ru' then case when x.female then (${A.ruF})[1 + floor(x.fu * ${RUSSIAN_FEMALE.length})::int] else (${A.ruM})[1 + floor(x.fu * ${RUSSIAN_MALE.length})::int] end
             else case when x.female then (${A.laF})[1 + floor(x.fu * ${latinF.length})::int] else (${A.laM})[1 + floor(x.fu * ${latinM.length})::int] end end as first_name,
        case when x.company then null when x.nat = 'gr' then case when x.female then (${A.grSurF})[x.gs] else (${A.grSurM})[x.gs] end
             when x.nat = 'ru' then case when x.female then (${A.ruSurF})[x.rs] else (${A.ruSurM})[x.rs] end
             else (${A.laSur})[x.ls] end as last_name,
        null::text as middle_name,
        case when x.kind = 'src' then (${A.srcNames})[1 + (g - ${E} - 1) % ${SOURCE_NAMES.length}] || case when g - ${E} > ${SOURCE_NAMES.length} then ' ' || ((g - ${E} - 1) / ${SOURCE_NAMES.length} + 1) else '' end
             when x.company then (${A.grSurM})[x.gs] || ' ' || case x.kind
               ${Object.entries(COMPANY_FORMS).map(([k, [a, b]]) => `when '${k}' then case when x.fu < 0.5 then ${lit(a)} else ${lit(b)} end`).join(' ')} end end as name,
        case when not x.company and (x.nat = 'ru' or (x.nat = 'gr' and ${U(16)} < 0.3)) then
          case when x.nat = 'ru' then case when x.female then (${A.ruFLat})[1 + floor(x.fu * ${RUSSIAN_FEMALE.length})::int] else (${A.ruMLat})[1 + floor(x.fu * ${RUSSIAN_MALE.length})::int] end
               else case when x.female then (${A.grFLat})[1 + floor(x.fu * ${GREEK_FEMALE.length})::int] else (${A.grMLat})[1 + floor(x.fu * ${GREEK_MALE.length})::int] end end end as first_name_eng,
        case when not x.company and (x.nat = 'ru' or (x.nat = 'gr' and ${U(16)} < 0.3)) then
          case when x.nat = 'ru' then case when x.female then (${A.ruSurFLat})[x.rs] else (${A.ruSurMLat})[x.rs] end
               else case when x.female then (${A.grSurFLat})[x.gs] else (${A.grSurMLat})[x.gs] end end end as last_name_eng,
        case when x.nat = 'gr' then case when x.female then (${A.grFLat})[1 + floor(x.fu * ${GREEK_FEMALE.length})::int] else (${A.grMLat})[1 + floor(x.fu * ${GREEK_MALE.length})::int] end
             when x.nat = 'ru' then case when x.female then (${A.ruFLat})[1 + floor(x.fu * ${RUSSIAN_FEMALE.length})::int] else (${A.ruMLat})[1 + floor(x.fu * ${RUSSIAN_MALE.length})::int] end
             else case when x.female then (${A.laF})[1 + floor(x.fu * ${latinF.length})::int] else (${A.laM})[1 + floor(x.fu * ${latinM.length})::int] end end as first_lat,
        case when x.nat = 'gr' then case when x.female then (${A.grSurFLat})[x.gs] else (${A.grSurMLat})[x.gs] end
             when x.nat = 'ru' then case when x.female then (${A.ruSurFLat})[x.rs] else (${A.ruSurMLat})[x.rs] end
             else translate(lower((${A.laSur})[x.ls]), 'äöüß', 'aous') end as last_lat,
        case x.service when 1 then round((60000 + ${U(17)} * 740000) / 5000) * 5000 when 2 then 300 + floor(${U(17)} * 25) * 50 else 400 + floor(${U(17)} * 40) * 50 end as budget
      ) y`;
    const res = await c.query(sqlText, params);
    await c.query(`select setval(pg_get_serial_sequence('accounts', 'id'), ${n})`);
    return res.rowCount ?? 0;
  },
};

const activitiesStep: Step = {
  name: 'activities',
  run: async ({ c, sizes, employees: E, users }) => {
    const { descriptions } = sampleTexts();
    const m = sizes.activities;
    const res = await c.query(
      `insert into activities (id, description, done, category, date, done_date, assigned_to, created_on, created_by, modified_on, modified_by)
       select g, ${pick('$1::text[]', descriptions.length, U(1))}, x.done, floor(${U(3)} * 4)::int,
         case when x.done then x.created + make_interval(secs => ${U(5)} * 3 * 86400)
              when not x.done then now() + make_interval(secs => (${U(5)} * 24 - 4) * 86400) end,
         case when x.done then x.created + make_interval(secs => ${U(5)} * 3 * 86400 + 3600) end,
         case when x.done is not null or ${U(6)} < 0.3 then 1 + floor(${U(7)} * ${E})::int end,
         x.created, x.by, x.created, x.by
       from generate_series(1, ${m}) g
       cross join lateral (select
         case when ${U(2)} < 0.3 then null when ${U(2)} < 0.85 then true else false end as done,
         now() - make_interval(secs => case when ${U(2)} >= 0.85 then ${U(4)} * 30 else ${U(4)} * 1095 end * 86400) as created,
         ${pick('$2::int[]', users.length, U(8))} as by) x`,
      [descriptions, users],
    );
    await c.query(`select setval(pg_get_serial_sequence('activities', 'id'), ${m})`);
    return res.rowCount ?? 0;
  },
};

/** The account an activity belongs to: 10% of activities go to 1000 busy accounts, the rest spread evenly. */
const firstAccount = (E: number, S: number, N: number) => {
  const first = E + S + 1;
  const span = N - E - S;
  return `case when ${U(20)} < 0.1 then ${first} + floor(${U(21)} * ${Math.min(1000, span)})::int else ${first} + floor(${U(21)} * ${span})::int end`;
};

const linksStep: Step = {
  name: 'activity links',
  run: async ({ c, sizes, employees: E, sources: S }) => {
    const N = sizes.accounts;
    const a = await c.query(
      `insert into activity_links (activity_id, entity, entity_id, position)
       select g, 2, ${firstAccount(E, S, N)}, 0 from generate_series(1, ${sizes.activities}) g`,
    );
    // A viewing or a call about two people (buyer and owner): a second link.
    const b = await c.query(
      `insert into activity_links (activity_id, entity, entity_id, position)
       select g, 2, x.second, 1 from generate_series(1, ${sizes.activities}) g
       cross join lateral (select ${E + S + 1} + floor(${U(22)} * ${N - E - S})::int as second, ${firstAccount(E, S, N)} as first) x
       where ${U(23)} < 0.15 and x.second <> x.first`,
    );
    return (a.rowCount ?? 0) + (b.rowCount ?? 0);
  },
};

const assignmentsStep: Step = {
  name: 'assignments',
  run: async ({ c, employees: E, sources: S }) => {
    const res = await c.query(
      `insert into assignments (parent, parent_id, account_id, created_on, created_by)
       select 1, a.id, 1 + floor(${U(30, 'a.id')} * ${E})::int, a.created_on, a.created_by
       from accounts a where a.id > ${E + S} and (a.is_owner or a.is_client) and ${U(31, 'a.id')} < 0.9
       union all
       select 1, a.id, 1 + ((floor(${U(30, 'a.id')} * ${E})::int + 1 + floor(${U(32, 'a.id')} * ${E - 1})::int) % ${E}), a.created_on, a.created_by
       from accounts a where a.id > ${E + S} and (a.is_owner or a.is_client) and ${U(31, 'a.id')} < 0.9 and ${U(33, 'a.id')} < 0.2
       on conflict do nothing`,
    );
    return res.rowCount ?? 0;
  },
};


/** Subtypes with their share of the portfolio, their type, and their Greek name (for titles). */
const OBJECT_KINDS: [sub: number, type: number, share: number, name: string][] = [
  [1, 1, 0.5, 'Διαμέρισμα'], [2, 1, 0.06, 'Γκαρσονιέρα'], [3, 1, 0.1, 'Μεζονέτα'], [4, 1, 0.06, 'Μονοκατοικία'], [5, 1, 0.04, 'Βίλα'],
  [13, 3, 0.08, 'Οικόπεδο'], [14, 3, 0.03, 'Αγροτεμάχιο'], [8, 2, 0.05, 'Κατάστημα'], [7, 2, 0.04, 'Γραφείο'], [9, 2, 0.01, 'Αποθήκη'], [15, 4, 0.03, 'Θέση στάθμευσης'],
];

/** The object a row number stands for: its kind, place, owner and prices (shared by the objects and their links). */
const objectDice = (owners: string, nOwners: number, nPlaces: number) => {
  let acc = 0;
  const sub = `case ${OBJECT_KINDS.map(([sub, , share]) => `when ${U(101)} < ${(acc += share).toFixed(4)} then ${sub}`).join(' ')} else 1 end`;
  return `select ${sub} as sub, 1 + floor(${U(102)} * ${nPlaces})::int as place, ${pick(owners, nOwners, U(103))} as owner,
    ${U(104)} < 0.7 as sale, ${U(104)} >= 0.6 as rent, ${U(105)} < 0.08 as short,
    ${U(106)} < 0.4 and ${U(107)} >= 0.2 as key_held, ${U(106)} < 0.4 as key,
    now() - make_interval(secs => ${U(108)} * 1095 * 86400) as created`;
};

const objectsStep: Step = {
  name: 'objects',
  run: async ({ c, sizes, employees: E, users }) => {
    const n = sizes.objects;
    if (!n) return 0;
    // Places: the areas and municipalities, Thessaloniki's three times as likely as Chalkidiki's.
    const places = (await c.query<{ id: number; name: string; lat: number; lon: number }>(
      `select id, name_el as name, latitude as lat, longitude as lon from locations l, generate_series(1, case when key like 'thessaloniki.%' then 3 else 1 end) where level >= 2 order by id`,
    )).rows;
    const owners = (await c.query<{ id: number }>('select id from accounts where is_owner order by id')).rows.map((r) => r.id);
    const kinds = OBJECT_KINDS;
    const params = [owners, places.map((p) => p.id), places.map((p) => p.name), places.map((p) => p.lat), places.map((p) => p.lon), users,
      kinds.map((k) => k[0]), kinds.map((k) => k[1]), kinds.map((k) => k[3])];
    const res = await c.query(
      `insert into objects (id, reference_number, title, sub_type_object_type_id, object_sub_type_id, for_sale, for_rent, for_short_rent, active,
         area, bedrooms, bathrooms, floor, sale_price, rent_price, short_rent_price, location_id, address, latitude, longitude,
         display_coordinates, map_zoom, map_circle_latitude, map_circle_longitude, map_circle_radius, description,
         created_on, created_by, created_by_account_id, modified_on, modified_by, owner_id, has_key, rented, search_text,
         publish_requested, published, last_update)
       select g, g, y.title, y.type, x.sub, x.sale, x.rent and not x.sale or ${U(109)} < 0.1, x.short, ${U(110)} < 0.9,
         y.area, y.bedrooms, case when y.bedrooms is not null then 1 + (y.bedrooms / 3) end, case when x.sub in (1, 2, 7) then floor(${U(111)} * 8)::int end,
         case when x.sale then round(y.area * (1200 + ${U(112)} * 2400) / 1000) * 1000 end,
         case when x.rent and not x.sale or ${U(109)} < 0.1 then round(y.area * (7 + ${U(112)} * 8) / 10) * 10 end,
         case when x.short then 50 + floor(${U(113)} * 40) * 10 end,
         ($2::int[])[x.place], y.address,
         y.lat, y.lon, ${U(116)} < 0.3, case when ${U(116)} < 0.3 then 17 else 15 end,
         case when ${U(116)} >= 0.3 then y.lat end, case when ${U(116)} >= 0.3 then y.lon end, case when ${U(116)} >= 0.3 then 300 + floor(${U(117)} * 12) * 100 end,
         y.title || '. Φωτεινό, ανακαινισμένο, κοντά σε συγκοινωνία και καταστήματα.',
         x.created, ${pick('$6::int[]', users.length, U(118))}, 1 + floor(${U(119)} * ${E})::int,
         x.created + (now() - x.created) * ${U(120)}, ${pick('$6::int[]', users.length, U(118))},
         x.owner, x.key_held, x.rent and ${U(121)} < 0.6,
         crm_object_search_text(g, y.title, null, y.address, (select a.display_name from accounts a where a.id = x.owner)),
         -- Two in five active objects are on the public site.
         ${U(110)} < 0.9 and ${U(126)} < 0.4, ${U(110)} < 0.9 and ${U(126)} < 0.4, x.created + (now() - x.created) * ${U(120)}
       from generate_series(1, ${n}) g
       cross join lateral (${objectDice('$1::int[]', owners.length, places.length)}) x
       cross join lateral (select
         ($8::int[])[array_position($7::int[], x.sub)] as type,
         case when x.sub in (13, 14) then round(400 + ${U(122)} * 8000) when x.sub = 15 then 12 + floor(${U(122)} * 5) else round(30 + ${U(122)} * 170) end as area,
         case when x.sub <= 5 then 1 + floor(${U(123)} * 4)::int end as bedrooms,
         ($4::float8[])[x.place] + (${U(124)} - 0.5) * 0.012 as lat, ($5::float8[])[x.place] + (${U(125)} - 0.5) * 0.016 as lon,
         ${pick(`$10::text[]`, GREEK_STREETS.length, U(114))} || ' ' || (1 + floor(${U(115)} * 160)::int) as address
       ) y0
       cross join lateral (select y0.*, ($9::text[])[array_position($7::int[], x.sub)] || ', ' || y0.area || ' τ.μ., ' || ($3::text[])[x.place] as title) y`,
      [...params, [...GREEK_STREETS]],
    );
    await c.query(`select setval(pg_get_serial_sequence('objects', 'id'), ${n})`);
    await c.query(`select setval('objects_reference_number_seq', ${n})`);
    return res.rowCount ?? 0;
  },
};

const objectLinksStep: Step = {
  name: 'object links, keys and their loans',
  run: async ({ c, sizes, employees: E, sources: S, users }) => {
    const n = sizes.objects;
    if (!n) return 0;
    const owners = (await c.query<{ id: number }>('select id from accounts where is_owner order by id')).rows.map((r) => r.id);
    const clients = (await c.query<{ id: number }>('select id from accounts where is_client and not is_owner order by id')).rows.map((r) => r.id);
    // Each object: its owner, and one more person (a tenant, a co-owner or a holiday guest).
    const a = await c.query(
      `insert into object_accounts (object_id, account_id, relation, start_date, end_date, price, rent_payment_day, created_on)
       select g, x.owner, 1, null, null, null, null, x.created from generate_series(1, ${n}) g
       cross join lateral (${objectDice('$1::int[]', owners.length, 1)}) x
       union all
       select g, ${pick('$2::int[]', clients.length, U(130))}, y.relation,
         y.start, case when y.relation = 7 then y.start + 7 else (y.start + interval '3 years')::date end,
         case when y.relation = 2 then null else 300 + floor(${U(132)} * 20) * 50 end,
         case when y.relation = 4 then (array[0, 1, 5, 10, -3])[1 + floor(${U(133)} * 5)::int] end, x.created
       from generate_series(1, ${n}) g
       cross join lateral (${objectDice('$1::int[]', owners.length, 1)}) x
       cross join lateral (select case when ${U(131)} < 0.6 then 4 when ${U(131)} < 0.8 then 2 else 7 end as relation,
         (now() - make_interval(days => floor(${U(134)} * 1500)::int))::date as start) y`,
      [owners, clients],
    );
    const k = await c.query(
      `insert into object_keys (object_id, account_id, received, given_away, description, created_by, modified_by)
       select g, 1 + floor(${U(135)} * ${E})::int, x.created::date, case when not x.key_held then (x.created + (now() - x.created) / 2)::date end,
         'Κλειδί εξώπορτας και διαμερίσματος', ${pick('$2::int[]', users.length, U(136))}, ${pick('$2::int[]', users.length, U(136))}
       from generate_series(1, ${n}) g cross join lateral (${objectDice('$1::int[]', owners.length, 1)}) x
       where x.key`,
      [owners, users],
    );
    const l = await c.query(keyLoansSql(E, S, sizes.accounts, users));
    return (a.rowCount ?? 0) + (k.rowCount ?? 0) + (l.rowCount ?? 0);
  },
};

/**
 * The keys' lending history (decision 014): 1 to 5 loans a key (3 on average, 60k for 20k keys).
 * The newest is the key's own state as a save records it (its holder, given away, and received
 * when that is the return); the ones before it were returned, each some 60 days before the next,
 * lent half to staff and half to clients, so a name finds past holders as well as current ones.
 */
function keyLoansSql(E: number, S: number, N: number, users: number[]): { text: string; values: unknown[] } {
  const v = '(k.id * 8 + j)';
  return {
    text: `insert into object_key_loans (key_id, account_id, given_away, received, recorded_on, recorded_by)
       select k.id, x.account_id, x.given_away, x.received, coalesce(x.given_away, x.received, k.received)::timestamptz, ${pick('$1::int[]', users.length, U(139, v))}
       from object_keys k
       cross join lateral (select 1 + floor(${U(136, 'k.id')} * 5)::int as n) c
       cross join generate_series(1, c.n) j
       cross join lateral (select (k.received - (c.n - j) * 60 + floor(${U(137, v)} * 20)::int) as given) d
       cross join lateral (select
         case when j = c.n then k.account_id when ${U(138, v)} < 0.5 then 1 + floor(${U(140, v)} * ${E})::int
              else ${E + S + 1} + floor(${U(140, v)} * ${N - E - S})::int end as account_id,
         case when j = c.n then k.given_away else d.given end as given_away,
         case when j = c.n then (case when k.received is not null and (k.given_away is null or k.received >= k.given_away) then k.received end)
              else d.given + 1 + floor(${U(141, v)} * 10)::int end as received) x
       order by k.id, j`,
    values: [users],
  };
}

const objectPhotosStep: Step = {
  name: 'object photos (rows)',
  run: async ({ c, sizes, users }) => {
    const n = sizes.objects;
    if (!n) return 0;
    // Three photos an object: the rows only (the bench never opens the pictures).
    const res = await c.query(
      `insert into files (system_name, user_name, mime, size, parent_type, parent_id, type, sort_order, created_on, created_by, width, height, thumb_name, web_name)
       select 'bench' || f || '.jpg', 'IMG_' || lpad((f % 10000)::text, 4, '0') || '.jpg', 'image/jpeg', 1500000 + floor(${U(140, 'f')} * 3000000)::int,
         1, (f - 1) / 3 + 1, 'image', (f - 1) % 3, now() - make_interval(secs => ${U(141, 'f')} * 1095 * 86400), ${pick('$1::int[]', users.length, U(142, 'f'))},
         4000, 3000, 'bench' || f || '-thumb.webp', 'bench' || f || '-web.webp'
       from generate_series(1, ${n * 3}) f`,
      [users],
    );
    return res.rowCount ?? 0;
  },
};

const leadsStep: Step = {
  name: 'leads and the objects offered to them',
  run: async ({ c, sizes, sources: S, employees: E, users }) => {
    const n = sizes.leads;
    if (!n || !sizes.objects) return 0;
    const clients = (await c.query<{ id: number }>('select id from accounts where is_client order by id')).rows.map((r) => r.id);
    const places = (await c.query<{ id: number }>('select id from locations where level = 2 order by id')).rows.map((r) => r.id);
    // Each lead: a client, one service (purchase 60 %, rent 30 %, short let 10 %) with a budget
    // around real prices, a municipality for half of them, a stage (a fifth closed).
    const res = await c.query(
      `insert into leads (id, account_id, source, stage, priority, start_date, for_purchase, for_rent, for_short_rent,
         purchase_budget_range_min, purchase_budget_range_max, rent_budget_range_min, rent_budget_range_max,
         short_rent_budget_range_min, short_rent_budget_range_max, location_id, object_sub_types, area_min, bedrooms_min, features,
         description, created_on, created_by, modified_on, modified_by)
       select g, ${pick('$1::int[]', clients.length, U(201))}, ${E} + 1 + floor(${U(202)} * ${S})::int,
         1 + floor(${U(203)} * 8)::int, 1 + floor(${U(204)} * 4)::int, x.created::date,
         x.svc = 1, x.svc = 2, x.svc = 3,
         case when x.svc = 1 then x.budget * 1000 end, case when x.svc = 1 then x.budget * 1250 end,
         case when x.svc = 2 then x.budget * 4 end, case when x.svc = 2 then x.budget * 6 end,
         case when x.svc = 3 then 40 + floor(x.budget / 5) end, case when x.svc = 3 then 80 + floor(x.budget / 4) end,
         case when ${U(206)} < 0.5 then ${pick('$2::int[]', places.length, U(207))} end,
         case when ${U(208)} < 0.4 then array[1]::smallint[] else '{}'::smallint[] end,
         case when ${U(209)} < 0.5 then 40 + floor(${U(210)} * 60) end,
         case when ${U(211)} < 0.5 then 1 + floor(${U(212)} * 3)::int end,
         case when ${U(213)} < 0.3 then array['parking']::text[] else '{}'::text[] end,
         'Ζητά ακίνητο κοντά σε σχολεία και συγκοινωνία.', x.created, ${pick('$3::int[]', users.length, U(214))}, x.created, ${pick('$3::int[]', users.length, U(214))}
       from generate_series(1, ${n}) g
       cross join lateral (select case when ${U(215)} < 0.6 then 1 when ${U(215)} < 0.9 then 2 else 3 end as svc,
         60 + floor(${U(216)} * 240)::int as budget, now() - make_interval(secs => ${U(217)} * 730 * 86400) as created) x`,
      [clients, places, users],
    );
    await c.query(`select setval(pg_get_serial_sequence('leads', 'id'), ${n})`);
    // Two in five leads have one to three objects offered.
    const lo = await c.query(
      `insert into lead_objects (lead_id, object_id, position, created_on)
       select g, 1 + (floor(${U(220)} * ${sizes.objects})::int + k * 7919) % ${sizes.objects}, k, now()
       from generate_series(1, ${n}) g cross join generate_series(0, 2) k
       where ${U(221)} < 0.4 and k < 1 + floor(${U(222)} * 3)
       on conflict do nothing`,
    );
    return (res.rowCount ?? 0) + (lo.rowCount ?? 0);
  },
};

/** What clients said of a property at a viewing, as agents note it (the Viewings list's search, decision 015). */
const VIEWING_COMMENTS = [
  'Πολύ σκοτεινό, βλέπει σε φωταγωγό.',
  'Της άρεσε η θέα από το μπαλκόνι.',
  'Θέλει να το ξαναδεί με τη γυναίκα του.',
  'Η κουζίνα θέλει ανακαίνιση.',
  'Ακριβό για ό,τι προσφέρει.',
  'Δεν θέλει ισόγειο.',
  'Υγρασία στο μπάνιο, να το δει μηχανικός.',
  'Μικρά υπνοδωμάτια.',
  'Θόρυβος από τον δρόμο.',
  'Του άρεσε ο κήπος.',
  'Χωρίς θέση στάθμευσης, πρόβλημα για εκείνους.',
  'Έκανε προσφορά κάτω από τη ζητούμενη τιμή.',
  'Φωτεινό και ήσυχο.',
  'Μακριά από το σχολείο των παιδιών.',
  'Καλή τιμή, αλλά θέλει ανακαίνιση.',
  'Too dark for them.',
  'Loved the sea view, will call back after the weekend.',
  'Wants a lift; the stairs are too much for her mother.',
  'Нравится район, но дорого.',
  'Хочет посмотреть ещё раз с мужем.',
];
/**
 * A comment for the property at position `k` of viewing `g` (SQL expressions): three in five have
 * one, a third of those say two things.
 */
const viewingComment = (g: string, k: string) => {
  const v = `(${g}) * 3 + (${k})`;
  const phrases = `array[${VIEWING_COMMENTS.map(lit).join(', ')}]`;
  return `case when ${U(243, v)} < 0.6 then ${pick(phrases, VIEWING_COMMENTS.length, U(244, v))}
    || case when ${U(245, v)} < 0.35 then ' ' || ${pick(phrases, VIEWING_COMMENTS.length, U(246, v))} else '' end end`;
};

/** Comments for the past viewings of an agency generated before viewings had them (in place, no new rows). */
async function fillViewingComments(c: pg.Client) {
  const res = await c.query(
    `update viewing_objects vo set comment = ${viewingComment('vo.viewing_id', 'vo.position')}
     from viewings v where v.id = vo.viewing_id and v.date_of_viewing < now() and vo.comment is null`,
  );
  await c.query('vacuum (analyze) viewing_objects');
  return res.rowCount ?? 0;
}

const viewingsStep: Step = {
  name: 'viewings, their objects and who shows them',
  run: async ({ c, sizes, employees: E, users }) => {
    const n = sizes.viewings;
    if (!n || !sizes.leads || !sizes.objects) return 0;
    // Viewings over the last two years and the next month, each for a lead, showing one to three objects.
    const res = await c.query(
      `insert into viewings (id, appointment_created, date_of_viewing, demand_id, result, created_on, created_by, modified_on, modified_by)
       select g, x.at - interval '3 days', x.at, 1 + floor(${U(230)} * ${sizes.leads})::int,
         case when x.at > now() then 1 else (array[2, 3, 4, 5, 6, 7])[1 + floor(${U(231)} * 6)::int] end,
         x.at - interval '3 days', ${pick('$1::int[]', users.length, U(232))}, x.at, ${pick('$1::int[]', users.length, U(232))}
       from generate_series(1, ${n}) g
       cross join lateral (select date_trunc('hour', now() - make_interval(secs => (${U(233)} * 760 - 30) * 86400)) as at) x`,
      [users],
    );
    await c.query(`select setval(pg_get_serial_sequence('viewings', 'id'), ${n})`);
    const vo = await c.query(
      `insert into viewing_objects (viewing_id, object_id, result, comment, position)
       select g, 1 + (floor(${U(240)} * ${sizes.objects})::int + k * 7919) % ${sizes.objects}, v.result,
         case when v.date_of_viewing < now() then ${viewingComment('g', 'k')} end, k
       from generate_series(1, ${n}) g join viewings v on v.id = g cross join generate_series(0, 2) k
       where k < 1 + floor(${U(241)} * 3)
       on conflict do nothing`,
    );
    const asg = await c.query(
      `insert into assignments (parent, parent_id, account_id, created_on)
       select 3, g, 1 + floor(${U(242)} * ${E})::int, now() from generate_series(1, ${n}) g on conflict do nothing`,
    );
    return (res.rowCount ?? 0) + (vo.rowCount ?? 0) + (asg.rowCount ?? 0);
  },
};

const alertsStep: Step = {
  name: 'alerts (one per account: rent reminders, keys, to-dos), a tenth unread',
  run: async ({ c, sizes, users }) => {
    const n = sizes.accounts;
    if (!n) return 0;
    // Over the last two years, newest unread; each with its own dedup key like the system's.
    const res = await c.query(
      `insert into alerts (date, source, content, kind, entity, entity_id, dedup_key, readed_on, readed_by, notes)
       select x.at, (array['Rent', 'Keys', 'Tasks', 'Jobs'])[1 + g % 4], 'Rent reminder: tenant of property #' || lpad((1 + g % 50000)::text, 4, '0') || ' pays the rent in 4 days.',
         (array['rent', 'key', 'todo', 'job'])[1 + g % 4], 'Object', 1 + g % 50000, 'bench:' || g,
         case when g > ${n} * 0.1 then x.at + interval '2 hours' end,
         case when g > ${n} * 0.1 then ${pick('$1::int[]', users.length, U(260))} end,
         case when g % 7 = 0 then 'Called the tenant' end
       from generate_series(1, ${n}) g
       cross join lateral (select now() - make_interval(secs => g::double precision / ${n} * 730 * 86400) as at) x`,
      [users],
    );
    return res.rowCount ?? 0;
  },
};

/** Accounts that keep payments, and how many of them hold a 2,000-row statement. */
const PAYMENT_ACCOUNTS = 5000;
const LARGE_STATEMENTS = 10;
const LARGE_STATEMENT_ROWS = 2000;

const transactionsStep: Step = {
  name: 'payments: transactions of the owners',
  run: async ({ c, sizes, users }) => {
    const n = sizes.transactions;
    if (!n) return 0;
    const owners = (await c.query<{ id: number }>(`select id from accounts where is_owner order by hashint4(id) limit ${PAYMENT_ACCOUNTS}`)).rows.map((r) => r.id);
    if (!owners.length) return 0;
    // The first accounts get 2,000 rows each (the statements the bench reads), the rest share the others.
    const big = Math.min(LARGE_STATEMENTS, owners.length) * LARGE_STATEMENT_ROWS;
    // Rents in (income, 1 in 3), bills, fees and repairs out; a fifth of the expenses not paid yet.
    const res = await c.query(
      `insert into transactions (id, reference_number, account_id, type, amount, transaction_date, payment_method, category_id, status,
         payment_date, expiration_date, start_date, end_date, internal_notes, created_on, created_by, modified_on, modified_by)
       select g, g,
         case when g <= ${big} then ($1::int[])[1 + (g - 1) / ${LARGE_STATEMENT_ROWS}] else ${pick('$1::int[]', owners.length, U(250))} end,
         case when x.income then 'income' else 'expense' end,
         case when x.income then round((250 + ${U(251)} * 1250)::numeric, 2) else round((12 + ${U(252)} * 480)::numeric, 2) end,
         x.at, case when ${U(253)} < 0.25 then 2 else 1 end,
         case when x.income then (array[1, 1, 1, 2, 3, 4, 5, 6, 9])[1 + floor(${U(254)} * 9)::int]
              else (array[21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 39])[1 + floor(${U(255)} * 15)::int] end,
         case when x.income then null when ${U(256)} < 0.2 then 0 else 1 + floor(${U(257)} * 2)::int end,
         case when not x.income and ${U(256)} >= 0.2 then (x.at + interval '5 days')::date end,
         case when not x.income then (x.at + interval '20 days')::date end,
         case when not x.income and ${U(258)} < 0.5 then date_trunc('month', x.at)::date end,
         case when not x.income and ${U(258)} < 0.5 then (date_trunc('month', x.at) + interval '1 month - 1 day')::date end,
         case when ${U(259)} < 0.1 then 'Εξόφληση μέσω τράπεζας' end,
         x.at, ${pick('$2::int[]', users.length, U(260))}, x.at, ${pick('$2::int[]', users.length, U(260))}
       from generate_series(1, ${n}) g
       cross join lateral (select ${U(261)} < 0.33 as income, date_trunc('minute', now() - make_interval(secs => ${U(262)} * 1460 * 86400)) as at) x`,
      [owners, users],
    );
    // Two rows in three are for one of the owner's properties (issue 45), a hashed pick among them.
    await c.query(`update transactions t set object_id = p.ids[1 + (hashint4(t.id) & 1023) % cardinality(p.ids)]
      from (select account_id, array_agg(object_id order by object_id) as ids from object_accounts where relation = 1 group by account_id) p
      where p.account_id = t.account_id and hashint4(t.id + 7) % 3 <> 0`);
    await c.query(`select setval(pg_get_serial_sequence('transactions', 'id'), ${n})`);
    await c.query(`select setval(pg_get_serial_sequence('transactions', 'reference_number'), ${n})`);
    await c.query('update accounts set has_transactions = true where id in (select distinct account_id from transactions)');
    // Every account that keeps payments has its row (the load skips the trigger that makes it).
    const pa = await c.query(`insert into payment_accounts (account_id, transactions_modified_on)
      select a.id, coalesce(t.last, a.modified_on) from accounts a left join (select account_id, max(modified_on) as last from transactions group by account_id) t on t.account_id = a.id
      where a.has_transactions`);
    return (res.rowCount ?? 0) + (pa.rowCount ?? 0);
  },
};

const reservationsStep: Step = {
  name: 'short-let reservations',
  run: async ({ c, sizes, users }) => {
    const n = sizes.reservations;
    if (!n || !sizes.objects) return 0;
    // The short-let objects, each booked in turn: the k-th stay of an object starts `gap` (>= 10)
    // days after its (k-1)-th and lasts 1 to 9 nights, so no two stays share a night (the
    // exclusion constraint holds). Stays run from about 18 months ago to 6 months ahead, spread over its days.
    const str = (await c.query<{ id: number }>('select id from objects where for_short_rent order by id')).rows.map((r) => r.id);
    if (!str.length) return 0;
    await c.query(`update objects set website_code = 'W' || lpad(id::text, 5, '0') where for_short_rent`);
    const gap = Math.max(10, Math.floor(720 / Math.max(1, Math.ceil(n / str.length))));
    const res = await c.query(
      `insert into reservations (id, reservation_stage, booking_date, object_id, check_in, duration, adults, children,
         client_last_name, client_first_name, client_phone, source_id, reservation_number_external, problem,
         total, prepayment_bank, prepayment_bank_done, rest_cash, payment_to_owner, comission, comission3rd_party,
         created_on, created_by, modified_on, modified_by)
       select g, x.stage, x.check_in - (5 + floor(${U(251)} * 60)::int), ($1::int[])[1 + (g - 1) % ${str.length}], x.check_in, x.nights,
         1 + floor(${U(252)} * 4)::int, floor(${U(253)} * 3)::int,
         (array['Papadopoulos','Müller','Smith','Rossi','Ivanov','Nikolaou','Georgiou','Schmidt','Dubois','Petrova'])[1 + floor(${U(254)} * 10)::int],
         (array['Maria','Hans','John','Giulia','Olga','Eleni','Kostas','Anna','Pierre','Nikos'])[1 + floor(${U(255)} * 10)::int],
         '+30 69' || lpad((floor(${U(256)} * 100000000))::int::text, 8, '0'),
         1 + floor(${U(257)} * 9)::int, case when ${U(258)} < 0.5 then 'HM' || g end,
         case when ${U(259)} < 0.03 then 'Το κλειδί δεν παραδόθηκε' end,
         x.total, round(x.total * 0.3, 2), ${U(260)} < 0.8, x.total - round(x.total * 0.3, 2), round(x.total * 0.75, 2),
         round(x.total * 0.25, 2), case when ${U(261)} < 0.3 then round(x.total * 0.05, 2) end,
         x.check_in::timestamptz - interval '20 days', ${pick('$2::int[]', users.length, U(262))}, now(), ${pick('$2::int[]', users.length, U(262))}
       from generate_series(1, ${n}) g
       -- Each property's stays start on its own day of the cycle (a phase from its hash): with one start
       -- day for all, 4,000 guests arrived on five days of the two years and the weeks between were empty.
       cross join lateral (select current_date - 540 + ((g - 1) / ${str.length})::int * ${gap} + ((hashint4(((g - 1) % ${str.length}) * 37 + 269) & 2147483647) % ${gap - 9}) as check_in,
         1 + floor(${U(264)} * 9)::int as nights,
         case when ${U(265)} < 0.08 then 7 else 1 + floor(${U(266)} * 6)::int end as stage,
         round((60 + ${U(267)} * 240)::numeric * (1 + floor(${U(264)} * 9)::int), 2) as total) x`,
      [str, users],
    );
    await c.query(`select setval(pg_get_serial_sequence('reservations', 'id'), ${n})`);
    return res.rowCount ?? 0;
  },
};

/**
 * The action log: as many rows as activities (1M at full size) over three years, by the bench's
 * staff sign-ins (linked to the first employee accounts, so "by whom" filters find them), about
 * accounts (45 %), objects (30 %), leads and activities; and 500 document forms with a file each.
 */
const officeStep: Step = {
  name: 'action log and document forms',
  run: async ({ c, sizes, users }) => {
    const n = sizes.activities;
    if (!n) return 0;
    await c.query('update users u set account_id = x.i from unnest($1::int[]) with ordinality x(id, i) where u.id = x.id', [users]);
    const kind = `(case when ${U(254)} < 0.45 then 'Account' when ${U(254)} < 0.75 then 'Object' when ${U(254)} < 0.9 then 'Lead' else 'Activity' end)`;
    const log = await c.query(
      `insert into action_log (date, action_by, action, entity, entity_id, message, data)
       select now() - make_interval(secs => ${U(250)} * 3 * 365 * 86400), ${pick('$1::int[]', users.length, U(251))},
         case when ${U(252)} < 0.2 then 'Create' when ${U(252)} < 0.95 then 'Update' else 'Delete' end,
         k.entity, k.id, k.entity || ' #' || k.id,
         jsonb_build_object('notes', 'Called back about the viewing', 'version', 1 + floor(${U(253)} * 9)::int)
       from generate_series(1, ${n}) g
       cross join lateral (select ${kind} as entity,
         1 + floor(${U(255)} * (case ${kind} when 'Account' then ${sizes.accounts} when 'Object' then ${Math.max(1, sizes.objects)}
           when 'Lead' then ${Math.max(1, sizes.leads)} else ${sizes.activities} end))::int as id) k`,
      [users],
    );
    const docs = await c.query(
      `insert into documents (name, description, created_by, modified_by)
       select (array['Lease agreement', 'Sale preliminary contract', 'Key handover report', 'Power of attorney', 'Viewing confirmation'])[1 + g % 5] || ' ' || g,
         'Standard form, Greek and English', $1::int, $1::int
       from generate_series(1, 500) g returning id`,
      [users[0]],
    );
    await c.query(
      `insert into files (system_name, user_name, mime, size, parent_type, parent_id, type, sort_order, created_by)
       select md5('doc' || d) || '.pdf', 'form-' || d || '.pdf', 'application/pdf', 120000, 8, d, 'document', 0, $2::int
       from unnest($1::int[]) d`,
      [docs.rows.map((r: { id: number }) => r.id), users[0]],
    );
    return (log.rowCount ?? 0) + (docs.rowCount ?? 0) * 2;
  },
};

const dealsStep: Step = {
  name: 'deals and their parties',
  run: async ({ c, sizes, employees: E, users }) => {
    const n = sizes.deals;
    if (!n || !sizes.objects) return 0;
    const ofKind = async (flag: string) => (await c.query<{ id: number }>(`select id from accounts where ${flag} order by id limit 20000`)).rows.map((r) => r.id);
    const owners = await ofKind('is_owner');
    const clients = await ofKind('is_client');
    const lawyers = await ofKind('is_lawyer or is_attorney');
    const notaries = await ofKind('is_notary');
    const engineers = await ofKind('is_construction_engineer');
    const some = (ids: number[]) => (ids.length ? ids : [E + 1]);
    // Sales (70 %) and rentals over the last two years, spread over the stages (a third closed),
    // each on an object, half from a lead; rentals with their rent dates, sales with a duration.
    const res = await c.query(
      `insert into deals (id, object_id, demand_id, deal_type, deal_stage, asking_price, price, deposit, commission, date_of_deposit,
         start_date, end_date, contract_duration_months, rent_start, rent_expiration, notes, created_on, created_by, modified_on, modified_by)
       select g, 1 + floor(${U(280)} * ${sizes.objects})::int, case when ${sizes.leads} > 0 and ${U(281)} < 0.5 then 1 + floor(${U(282)} * ${Math.max(1, sizes.leads)})::int end,
         x.type, x.stage, x.asking, case when x.stage >= 2 then round(x.asking * 0.95, 2) end,
         case when x.stage >= 2 then round(x.asking * 0.1, 2) end, round(x.asking * 0.02, 2),
         case when x.stage >= 2 then (x.created + interval '10 days')::date end,
         x.created::date, case when x.stage >= 5 then (x.created + interval '60 days')::date end,
         case when x.type = 2 then 1 + floor(${U(283)} * 6)::int end,
         case when x.type = 1 then (x.created + interval '30 days')::date end, case when x.type = 1 then (x.created + interval '395 days')::date end,
         null, x.created, ${pick('$1::int[]', users.length, U(284))}, x.created + interval '5 days', ${pick('$1::int[]', users.length, U(284))}
       from generate_series(1, ${n}) g
       cross join lateral (select case when ${U(285)} < 0.7 then 2 else 1 end as type,
         case when ${U(286)} < 0.34 then 5 else 1 + floor(${U(287)} * 6)::int end as stage,
         now() - make_interval(secs => ${U(288)} * 730 * 86400) as created, 0 as z) y
       cross join lateral (select y.type, y.stage, y.created,
         case when y.type = 2 then 60000 + floor(${U(289)} * 440) * 1000 else 300 + floor(${U(289)} * 170) * 10 end::numeric as asking) x`,
      [users],
    );
    await c.query(`select setval(pg_get_serial_sequence('deals', 'id'), ${n})`);
    // Seller and buyer always; a lawyer, a notary and a civil engineer on sales past negotiation; an assigned employee.
    const parties = await c.query(
      `insert into deal_parties (deal_id, account_id, relation, position)
       select d.id, p.account_id, p.relation, p.position from deals d
       cross join lateral (values
         (${pick('$1::int[]', some(owners).length, U(290, 'd.id'))}, 1, 0, true),
         (${pick('$2::int[]', some(clients).length, U(291, 'd.id'))}, 2, 1, true),
         (${pick('$3::int[]', some(lawyers).length, U(292, 'd.id'))}, 3, 2, d.deal_type = 2 and d.deal_stage >= 2),
         (${pick('$4::int[]', some(notaries).length, U(293, 'd.id'))}, 4, 3, d.deal_type = 2 and d.deal_stage >= 3),
         (${pick('$5::int[]', some(engineers).length, U(294, 'd.id'))}, 5, 4, d.deal_type = 2 and d.deal_stage >= 3 and ${U(295, 'd.id')} < 0.5),
         (1 + floor(${U(296, 'd.id')} * ${E})::int, 6, 5, true)) as p(account_id, relation, position, keep)
       where p.keep
       on conflict do nothing`,
      [some(owners), some(clients), some(lawyers), some(notaries), some(engineers)],
    );
    return (res.rowCount ?? 0) + (parties.rowCount ?? 0);
  },
};

// ---- The entities added with issues 46-48: mandates, mail, API keys and webhooks -----------------

/**
 * The key the bench's secrets are sealed with (a mailbox's passwords, the webhooks' signing
 * secrets): the bench starts the app with it as MAIL_SECRET_KEY, so the webhooks' list opens them.
 */
export const BENCH_SECRET_KEY = createHash('sha256').update('agency-crm large agency (bench only)').digest('hex');
const benchSeal = (plain: string) => sealSecret(Buffer.from(BENCH_SECRET_KEY, 'hex'), plain);

/** How many of the entities added later a size makes: mail and deliveries in proportion to the accounts (the busy account's 2,000 messages at every size). */
export function recentSizes(sizes: LargeSizes) {
  const messages = Math.max(4000, Math.round(sizes.accounts / 8));
  return { messages, busyMessages: 2000, deliveries: sizes.accounts, apiKeys: 20, webhooks: 3 };
}

const TAX_OFFICES = ['Δ.Ο.Υ. Καλαμαριάς', 'Δ.Ο.Υ. Α\' Θεσσαλονίκης', 'Δ.Ο.Υ. Ε\' Θεσσαλονίκης', 'Δ.Ο.Υ. Ζ\' Θεσσαλονίκης', 'Δ.Ο.Υ. Ιωνίας Θεσσαλονίκης', 'Δ.Ο.Υ. Αμπελοκήπων', 'Δ.Ο.Υ. Πολυγύρου', 'Δ.Ο.Υ. Νέων Μουδανιών'];

/**
 * Mandates (issue 47, decision 079): three in five properties have one, two in five of them
 * exclusive. An exclusive one lasts 1 to 8 months, and one in three was extended once by 1 to 4
 * months (the law's limits, as the save checks them); a simple one lasts 3 to 12 months, one in
 * seven extended. They started over the last three years, so their ends spread from the past to a
 * year ahead: about 2.5 % end in the next 30 days (some 800 at full size). The owners who gave
 * them are the property's owner links (object_accounts relation 1), one in two with a tax office.
 */
const mandatesStep: Step = {
  name: 'mandates',
  run: async ({ c, users }) => {
    const v = 'o.id';
    const res = await c.query(
      `insert into object_mandates (id, object_id, kind, start_date, end_date, extended_until, extensions, asking_price, commission_percent, commission_amount, exceptions,
         alert_30_on, alert_10_on, created_on, created_by, modified_on, modified_by)
       select row_number() over (order by o.id), o.id, z.kind, z.start_date, z.end_date, z.extended_until, case when z.extended_until is null then 0 else 1 end,
         coalesce(o.sale_price, o.rent_price), case when o.sale_price is not null then 2 end, case when o.sale_price is null then o.rent_price end,
         case when ${U(303, v)} < 0.1 then '[{"name": "Γεώργιος Παπαδόπουλος", "note": "Αγοραστής που γνώρισε ο ιδιοκτήτης πριν την εντολή"}]'::jsonb else '[]'::jsonb end,
         case when z.ends - 30 <= current_date then z.ends - 30 end, case when z.ends - 10 <= current_date then z.ends - 10 end,
         z.start_date::timestamptz + interval '11 hours', ${pick('$1::int[]', users.length, U(304, v))}, z.start_date::timestamptz + interval '11 hours', ${pick('$1::int[]', users.length, U(304, v))}
       from objects o
       cross join lateral (select ${U(300, v)} < 0.4 as exclusive, (current_date - floor(${U(301, v)} * 1100)::int) as start_date) x
       cross join lateral (select x.exclusive, x.start_date,
         case when x.exclusive then 1 + floor(${U(302, v)} * 8)::int else 3 + floor(${U(302, v)} * 10)::int end as months,
         case when x.exclusive and ${U(305, v)} < 0.33 then 1 + floor(${U(306, v)} * 4)::int
              when not x.exclusive and ${U(305, v)} < 0.14 then 1 + floor(${U(306, v)} * 6)::int end as ext) y
       cross join lateral (select case when y.exclusive then 'exclusive' else 'simple' end as kind, y.start_date,
         (y.start_date + make_interval(months => y.months))::date as end_date,
         case when y.ext is not null then (y.start_date + make_interval(months => y.months) + make_interval(months => y.ext))::date end as extended_until) z0
       cross join lateral (select z0.*, coalesce(z0.extended_until, z0.end_date) as ends) z
       where ${U(307, v)} < 0.6
       order by o.id`,
      [users],
    );
    await c.query(`select setval(pg_get_serial_sequence('object_mandates', 'id'), greatest(1, (select max(id) from object_mandates)))`);
    const owners = await c.query(
      `insert into object_mandate_owners (mandate_id, account_id, position, tax_office)
       select m.id, oa.account_id, (row_number() over (partition by m.id order by oa.account_id) - 1)::smallint,
         case when ${U(308, 'oa.account_id')} < 0.5 then ${pick('$1::text[]', TAX_OFFICES.length, U(309, 'oa.account_id'))} end
       from object_mandates m join object_accounts oa on oa.object_id = m.object_id and oa.relation = 1
       on conflict do nothing`,
      [TAX_OFFICES],
    );
    return (res.rowCount ?? 0) + (owners.rowCount ?? 0);
  },
};

const MAIL_SUBJECTS_WITH_REF = ['Ενδιαφέρον για το ακίνητο', 'Ερώτηση για το ακίνητο', 'Ραντεβού για επίσκεψη στο ακίνητο', 'Προσφορά για το ακίνητο', 'Interest in property ref', 'Viewing request, ref'];
const MAIL_SUBJECTS = ['Re: Προσφορά', 'Δικαιολογητικά για το συμβόλαιο', 'Ενοίκιο μηνός', 'Ευχαριστώ για την επίσκεψη', 'Νέα ακίνητα στην περιοχή σας', 'Re: Τιμή', 'Question about the contract', 'Following up on our call', 'Вопрос по квартире', 'Документы для покупки'];

/**
 * One shared mailbox (issue 46, decision 078) with its synced mail: 12,500 messages at full size
 * (an account in eight), incoming from an account or sent to one, as the sync stores them (from, to
 * and cc as {address, name}, addresses in lower case), one in ten with a second account in copy and
 * one in ten with an attachment (the row only). One client holds 2,000 of them (the timeline the
 * issue asks within a record's budget); two in five name a property by its reference ("#0123"), and
 * are linked to it as the sync links them.
 */
const mailStep: Step = {
  name: 'mailbox and its mail',
  run: async ({ c, sizes, users }) => {
    const { messages: n, busyMessages } = recentSizes(sizes);
    const address = `info@${AGENCY_DOMAIN}`;
    await c.query(
      `insert into mailboxes (id, name, address, imap_host, imap_port, imap_tls, imap_user, imap_password, smtp_host, smtp_port, smtp_tls, smtp_user, smtp_password,
         uid_validity, last_uid, last_sync_on, created_by, modified_by)
       values (1, 'Γραφείο', $1, 'imap.${AGENCY_DOMAIN}', 993, true, $1, $2, 'smtp.${AGENCY_DOMAIN}', 465, true, $1, $3, 1, $4, now(), $5, $5)`,
      [address, benchSeal('bench-imap-password'), benchSeal('bench-smtp-password'), n, users[0]],
    );
    await c.query(`select setval(pg_get_serial_sequence('mailboxes', 'id'), 1)`);
    const { descriptions } = sampleTexts();
    // The correspondents: clients and owners with an e-mail; the first client among them is the busy one.
    await c.query(
      `create temp table bench_mail on commit drop as
       with people as (select array_agg(id order by id) as ids from accounts where (is_client or is_owner) and not is_employe and cardinality(emails) > 0)
       select g as id, case when g <= ${busyMessages} then (select min(id) from accounts where is_client and not is_employe and cardinality(emails) > 0)
                           else p.ids[1 + floor(${U(310)} * cardinality(p.ids))::int] end as account_id,
         case when ${U(311)} < 0.1 then p.ids[1 + floor(${U(312)} * cardinality(p.ids))::int] end as cc_id,
         case when ${sizes.objects} > 0 and ${U(313)} < 0.4 then 1 + floor(${U(314)} * ${Math.max(1, sizes.objects)})::int end as object_id,
         ${U(315)} < 0.6 as incoming, now() - make_interval(secs => ${U(316)} * 180 * 86400) as sent_on
       from generate_series(1, ${n}) g cross join people p`,
    );
    const office = `jsonb_build_object('address', '${address}', 'name', 'Thermaikos Homes')`;
    const person = (a: string) => `jsonb_build_object('address', lower(${a}.emails[1]), 'name', coalesce(${a}.display_name, ''))`;
    const res = await c.query(
      `insert into mail_messages (id, mailbox_id, message_id, uid_validity, uid, subject, "from", "to", cc, sent_on, headers, text, html, created_on)
       select b.id, 1, '<bench.' || b.id || '.' || hashint4(b.id) || '@' || case when b.incoming then 'mail.example.com' else '${AGENCY_DOMAIN}' end || '>', 1, b.id,
         case when b.object_id is not null then ${pick('$1::text[]', MAIL_SUBJECTS_WITH_REF.length, U(317, 'b.id'))} || ' #' || lpad(b.object_id::text, 4, '0')
              else ${pick('$2::text[]', MAIL_SUBJECTS.length, U(317, 'b.id'))} end,
         case when b.incoming then ${person('a')} else ${office} end,
         jsonb_build_array(case when b.incoming then ${office} else ${person('a')} end),
         case when cc.id is not null then jsonb_build_array(${person('cc')}) else '[]'::jsonb end,
         b.sent_on, jsonb_build_object('x-mailer', 'bench'), x.text, case when ${U(318, 'b.id')} < 0.3 then '<p>' || x.text || '</p>' end, b.sent_on
       from bench_mail b join accounts a on a.id = b.account_id left join accounts cc on cc.id = b.cc_id and cardinality(cc.emails) > 0
       cross join lateral (select ${pick('$3::text[]', descriptions.length, U(319, 'b.id'))} as text) x
       order by b.id`,
      [MAIL_SUBJECTS_WITH_REF, MAIL_SUBJECTS, descriptions],
    );
    await c.query(`select setval(pg_get_serial_sequence('mail_messages', 'id'), ${n})`);
    const links = await c.query(
      `insert into mail_message_accounts (message_id, account_id, sent_on)
       select id, account_id, sent_on from bench_mail
       union select b.id, b.cc_id, b.sent_on from bench_mail b join accounts a on a.id = b.cc_id and cardinality(a.emails) > 0 where b.cc_id is not null`,
    );
    const objects = await c.query(`insert into mail_message_objects (message_id, object_id, sent_on) select id, object_id, sent_on from bench_mail where object_id is not null`);
    const files = await c.query(
      `insert into mail_attachments (id, message_id, system_name, user_name, mime, size)
       select row_number() over (order by id), id, 'bench-mail-' || id || '.pdf', (array['Συμβόλαιο.pdf', 'Τοπογραφικό.pdf', 'Ταυτότητα.pdf', 'Contract.pdf'])[1 + (id % 4)], 'application/pdf', 80000 + hashint4(id) % 50000 + 50000
       from bench_mail where ${U(320, 'id')} < 0.1`,
    );
    await c.query(`select setval(pg_get_serial_sequence('mail_attachments', 'id'), greatest(1, (select max(id) from mail_attachments)))`);
    return (res.rowCount ?? 0) + (links.rowCount ?? 0) + (objects.rowCount ?? 0) + (files.rowCount ?? 0) + 1;
  },
};

/**
 * API keys and webhooks (issue 48, decision 080): 20 keys (three revoked, a few never used) and 3
 * endpoints with 100,000 deliveries at full size (one an account) over the last year, in order per
 * endpoint: delivered, the newest few still pending, one in thirty failed.
 */
const integrationsStep: Step = {
  name: 'API keys and webhooks',
  run: async ({ c, sizes, users }) => {
    const { deliveries: n, apiKeys, webhooks } = recentSizes(sizes);
    const levels = ['read', 'write', 'none'];
    const keys = Array.from({ length: apiKeys }, (_, i) => {
      const secret = `crm_${createHash('sha256').update(`bench key ${i}`).digest('hex')}`;
      const scopes = { accounts: levels[i % 3], properties: levels[(i + 1) % 2], leads: levels[i % 2], deals: levels[(i + 2) % 3], payments: i % 5 ? 'none' : 'read' };
      return { name: ['n8n', 'Make', 'Zapier', 'Λογιστήριο', 'Ιστοσελίδα'][i % 5]! + ` ${1 + Math.floor(i / 5)}`, hint: `${secret.slice(0, 10)}…`, hash: createHash('sha256').update(secret).digest(), scopes };
    });
    const k = await c.query(
      `insert into api_keys (id, name, hint, key_hash, scopes, created_by, created_on, expires_on, last_used_on, revoked_on)
       select i, x.name, x.hint, x.hash, x.scopes, $5::int, now() - make_interval(days => 20 * i::int), now() + make_interval(days => 365 - 10 * i::int),
         case when i % 6 <> 5 then now() - make_interval(mins => 37 * i::int) end, case when i in (4, 11, 17) then now() - make_interval(days => i::int) end
       from unnest($1::text[], $2::text[], $3::bytea[], $4::jsonb[]) with ordinality as x(name, hint, hash, scopes, i)`,
      [keys.map((x) => x.name), keys.map((x) => x.hint), keys.map((x) => x.hash), keys.map((x) => JSON.stringify(x.scopes)), users[0]],
    );
    await c.query(`select setval(pg_get_serial_sequence('api_keys', 'id'), ${apiKeys})`);
    const hooks = [
      { url: 'https://n8n.example.com/webhook/crm-leads', events: ['lead.created', 'lead.updated', 'viewing.created'] },
      { url: 'https://hook.eu1.make.com/bench-accounts', events: ['account.created', 'account.updated', 'account.deleted', 'property.updated'] },
      { url: 'https://accounting.example.com/crm/payments', events: ['payment.created', 'payment.updated', 'deal.updated'] },
    ].slice(0, webhooks);
    const w = await c.query(
      `insert into webhook_endpoints (id, url, events, secret, created_by, created_on)
       select i, x.url, string_to_array(x.events, ','), x.secret, $4::int, now() - interval '400 days' from unnest($1::text[], $2::text[], $3::text[]) with ordinality as x(url, events, secret, i)`,
      [hooks.map((h) => h.url), hooks.map((h) => h.events.join(',')), hooks.map((_, i) => benchSeal(`whsec_bench_${i}`)), users[0]],
    );
    await c.query(`select setval(pg_get_serial_sequence('webhook_endpoints', 'id'), ${webhooks})`);
    const events = hooks.map((h) => h.events);
    const entityOf: Record<string, string> = { lead: 'Lead', viewing: 'Viewing', account: 'Account', property: 'Object', payment: 'Transaction', deal: 'Deal' };
    const d = await c.query(
      `insert into webhook_deliveries (id, endpoint_id, event, entity, entity_id, payload, state, attempts, last_status, last_error, created_on, last_attempt_on, delivered_on)
       select g, x.ep, x.event, ($4::jsonb)->>split_part(x.event, '.', 1), x.entity_id,
         jsonb_build_object('action', case split_part(x.event, '.', 2) when 'created' then 'Insert' when 'deleted' then 'Delete' else 'Update' end,
           'by', 'bench-staff-1@bench.invalid', 'data', jsonb_build_object('id', x.entity_id)),
         x.state, case x.state when 'pending' then 0 when 'failed' then 8 else case when ${U(321)} < 0.05 then 2 else 1 end end,
         case x.state when 'pending' then null when 'failed' then 503 else 200 end, case when x.state = 'failed' then 'HTTP 503' end,
         x.created, case when x.state <> 'pending' then x.created + interval '2 seconds' end, case when x.state = 'delivered' then x.created + interval '2 seconds' end
       from generate_series(1, ${n}) g
       cross join lateral (select 1 + g % ${webhooks} as ep, now() - make_interval(secs => (${n} - g)::float8 / ${n} * 365 * 86400) as created,
         case when g > ${n} - greatest(3, ${n} / 500) then 'pending' when ${U(322)} < 0.033 then 'failed' else 'delivered' end as state,
         1 + floor(${U(323)} * ${Math.max(100, sizes.accounts)})::int as entity_id) y
       cross join lateral (select y.*, case y.ep when 1 then ($1::text[])[1 + g % ${events[0]!.length}] when 2 then ($2::text[])[1 + g % ${events[1]?.length ?? 1}]
         else ($3::text[])[1 + g % ${events[2]?.length ?? 1}] end as event) x`,
      [events[0], events[1] ?? [], events[2] ?? [], JSON.stringify(entityOf)],
    );
    await c.query(`select setval(pg_get_serial_sequence('webhook_deliveries', 'id'), ${n})`);
    return (k.rowCount ?? 0) + (w.rowCount ?? 0) + (d.rowCount ?? 0);
  },
};

/**
 * The entities added after an agency may have been generated, each with the table whose emptiness
 * says it is missing: a dataset generated before them has them filled in place (as the keys' loans).
 */
const RECENT: { step: Step; table: string; tables: string[] }[] = [
  { step: mandatesStep, table: 'object_mandates', tables: ['object_mandates', 'object_mandate_owners'] },
  { step: mailStep, table: 'mailboxes', tables: ['mailboxes', 'mail_messages', 'mail_attachments', 'mail_message_accounts', 'mail_message_objects'] },
  { step: integrationsStep, table: 'webhook_endpoints', tables: ['api_keys', 'webhook_endpoints', 'webhook_deliveries'] },
];

/** The later entities an agency of these sizes lacks (mandates only where there are properties). */
async function recentMissing(c: pg.Client, sizes: LargeSizes): Promise<typeof RECENT> {
  const missing: typeof RECENT = [];
  for (const r of RECENT) {
    if (r.step === mandatesStep && !sizes.objects) continue;
    const { rows } = await c.query<{ some: boolean }>(`select exists (select 1 from ${r.table}) as some`);
    if (!rows[0]!.some) missing.push(r);
  }
  return missing;
}

/**
 * The generation steps, in order. Objects (50k), leads (100k), transactions (300k) and
 * viewings, deals and reservations (20k each) come here as their tables are built: add a step
 * (and its table to TABLES, and to the clearing in clearData) — accounts 1..N are the people to
 * link them to (1..employees are staff, then the lead sources).
 */
const STEPS: Step[] = [accountsStep, activitiesStep, linksStep, assignmentsStep, objectsStep, objectLinksStep, objectPhotosStep, leadsStep, viewingsStep, officeStep, transactionsStep, alertsStep, dealsStep, reservationsStep, mandatesStep, mailStep, integrationsStep];

async function clearData(c: pg.Client) {
  // One statement: PostgreSQL truncates a table only with every table whose foreign key points at it
  // (a payment names its property since 0073; the mandates, the mail and the webhooks' deliveries,
  // issues 46-48, point at objects and accounts), whether they hold rows or not.
  await c.query(`truncate action_log, documents, alerts,
    mail_enquiries, invoices, portal_reports, portal_channel_objects, calendar_feeds, sign_requests, mail_attachment_files,
    owner_report_links, owner_report_settings, owner_report_mailings, owner_report_shares, object_site_views,
    object_mandate_owners, object_mandates, mail_message_accounts, mail_message_objects, mail_message_leads, mail_attachments, mail_messages, mailboxes, webhook_deliveries, webhook_endpoints, api_keys,
    transaction_attachments, transactions, payment_accounts,
    shortlist_objects, shortlists, reservations, deal_parties, deals, viewing_objects, viewings, lead_object_marks, lead_objects, lead_words, leads, activity_links, activities,
    assignments, object_accounts, object_key_loans, object_keys, object_words, objects, files restart identity`);
  await c.query('update users set account_id = null where account_id is not null');
  // The load runs without triggers (and so without the foreign keys' cascades).
  await c.query('truncate account_last_names, account_words, search_words, object_search_words');
  // A record's mail counted ahead (decision 105): counted again once the mail is there.
  await c.query('truncate mail_counts, mail_count_changes');
  // The kept matches of the agency that was (decision 070): made again as the new one is looked at.
  await c.query('truncate lead_matches, lead_match_lists, object_matches, object_match_lists, match_changes, report_lines, report_cells');
  await c.query('delete from accounts');
}

/** Secondary indexes of the generated tables that are neither unique nor behind a constraint. */
async function dropSecondaryIndexes(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ name: string; def: string }>(
    `select i.relname as name, pg_get_indexdef(x.indexrelid) as def
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
     where t.relname = any($1) and t.relnamespace = 'public'::regnamespace and not x.indisunique and not x.indisprimary
       and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid)`,
    [TABLES],
  );
  for (const r of rows) await c.query(`drop index "${r.name}"`);
  return rows.map((r) => r.def);
}

/** Keys there, and not one loan: data generated before the lending history (decision 014). */
async function keyLoansMissing(c: pg.Client): Promise<boolean> {
  const { rows } = await c.query<{ missing: boolean }>('select exists (select 1 from object_keys) and not exists (select 1 from object_key_loans) as missing');
  return rows[0]!.missing;
}

async function benchUsers(c: pg.Client, n: number): Promise<number[]> {
  const emails = Array.from({ length: n }, (_, i) => `bench-staff-${i + 1}@bench.invalid`);
  await c.query(
    `insert into users (email, username, roles) select e, e, array['employee'] from unnest($1::text[]) e on conflict do nothing`,
    [emails],
  );
  const { rows } = await c.query<{ id: number }>('select id from users where email = any($1) order by id', [emails]);
  return rows.map((r) => r.id);
}

/**
 * Fills the database with the large agency unless it already holds one of these sizes.
 * Returns whether it generated and how long it took.
 */
export async function ensureLargeData(url: string, sizes: LargeSizes, opts: { force?: boolean; log: Log }): Promise<{ generated: boolean; seconds: number }> {
  const { log } = opts;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`create table if not exists bench_dataset (id int primary key default 1 check (id = 1), accounts int not null,
      activities int not null, generated_on timestamptz not null default now(), seconds numeric)`);
    for (const kind of ['objects', 'leads', 'viewings', 'transactions', 'deals', 'reservations']) {
      await c.query(`alter table bench_dataset add column if not exists ${kind} int not null default 0`);
    }
    // Viewings' comments came later (decision 015): an agency generated before has them filled in place.
    await c.query('alter table bench_dataset add column if not exists viewing_comments boolean not null default false');
    const marker = (await c.query<LargeSizes & { generated_on: Date }>('select * from bench_dataset')).rows[0];
    const same = marker && (['accounts', 'activities', 'objects', 'leads', 'viewings', 'transactions', 'deals', 'reservations'] as const).every((k) => marker[k] === sizes[k]);
    if (same && !opts.force && !(marker as { viewing_comments?: boolean }).viewing_comments && sizes.viewings) {
      const started = Date.now();
      const n = await fillViewingComments(c);
      await c.query('update bench_dataset set viewing_comments = true');
      log(`  comments given to the past viewings' properties (${n} rows, three in five with one) (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
    const employees = Math.max(5, Math.min(50, Math.floor(sizes.accounts / 2000)));
    const sources = Math.max(5, Math.min(40, Math.floor(sizes.accounts / 2500)));
    if (same && !opts.force && (await keyLoansMissing(c))) {
      // An agency generated before keys had a lending history: its loans alone are added.
      const started = Date.now();
      await c.query('begin');
      const users = await benchUsers(c, 10);
      const l = await c.query(keyLoansSql(employees, sources, sizes.accounts, users));
      await c.query('commit');
      await c.query('vacuum (analyze) object_key_loans');
      log(`The large agency is there; added the keys' lending history: ${l.rowCount} loans (${((Date.now() - started) / 1000).toFixed(1)} s).`);
      return { generated: true, seconds: (Date.now() - started) / 1000 };
    }
    const recent = same && !opts.force ? await recentMissing(c, sizes) : [];
    if (recent.length) {
      // An agency generated before the mandates, the mail or the webhooks (issues 46-48): those are added in place.
      const started = Date.now();
      await c.query('begin');
      const users = await benchUsers(c, 10);
      const ctx: Ctx2 = { c, sizes, employees, sources, users, log };
      for (const r of recent) {
        const rows = await r.step.run(ctx);
        log(`  ${r.step.name}: ${rows} rows, added to the agency generated before (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
      // The mail added in place wrote its records' changes: counted whole at once (decision 105).
      await c.query('select crm_mail_counts_rebuild()');
    // And each transaction's running balance on its statement (decision 112).
    await c.query('select crm_transaction_balances_rebuild()');
      await c.query('commit');
      await c.query(`vacuum (analyze) ${recent.flatMap((r) => r.tables).join(', ')}`);
      log(`The large agency is there; added what it lacked: ${recent.map((r) => r.step.name).join(', ')} (${((Date.now() - started) / 1000).toFixed(1)} s).`);
      return { generated: true, seconds: (Date.now() - started) / 1000 };
    }
    if (same && !opts.force) {
      log(`The large agency (${sizes.accounts} accounts, ${sizes.activities} activities, ${sizes.objects} objects, ${sizes.leads} leads, ${sizes.viewings} viewings, ${sizes.transactions} transactions, ${sizes.deals} deals) is already there (generated ${marker.generated_on.toISOString()}); --force regenerates it.`);
      return { generated: false, seconds: 0 };
    }
    if (!marker) {
      const { rows } = await c.query<{ n: number }>('select count(*)::int as n from accounts');
      if (rows[0]!.n > 0) {
        throw new Error(
          `This database holds ${rows[0]!.n} accounts that the generator did not create. It deletes all accounts and activities, ` +
            'so it runs only on an empty database or one it filled before: point DATABASE_URL at an empty database, or leave it unset to use the embedded one under DATA_DIR.',
        );
      }
    }
    if (sizes.activities > 0 && sizes.accounts < employees + sources + 10) throw new Error('--accounts is too small');

    const started = Date.now();
    log(`Generating a large agency: ${sizes.accounts} accounts, ${sizes.activities} activities, ${sizes.objects} objects, ${sizes.leads} leads, ${sizes.viewings} viewings, ${sizes.transactions} transactions, ${sizes.deals} deals...`);
    // The rows are consistent by construction: skip the per-row foreign-key triggers when allowed (superuser).
    try {
      await c.query('set session_replication_role = replica');
    } catch {
      log('  (not a superuser: foreign keys are checked row by row, which is slower)');
    }
    await c.query('begin');
    await c.query("set local maintenance_work_mem = '512MB'");
    await c.query("set local work_mem = '64MB'");
    await c.query('set local synchronous_commit = off');
    await c.query('set local max_parallel_maintenance_workers = 2');
    const t = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const indexes = await dropSecondaryIndexes(c);
    await clearData(c);
    log(`  cleared the previous data, dropped ${indexes.length} indexes for the load (${t()})`);
    const users = await benchUsers(c, 10);
    const ctx: Ctx2 = { c, sizes, employees, sources, users, log };
    for (const step of STEPS) {
      const rows = await step.run(ctx);
      log(`  ${step.name}: ${rows} rows (${t()})`);
    }
    // The last-name look-up table is kept by a trigger the load skipped: filled once, before its indexes.
    await c.query('select crm_account_last_names_rebuild()');
    log(`  last names (${t()})`);
    // So is the global search's word table (0033).
    await c.query('select crm_account_words_rebuild()');
    log(`  search words (${t()})`);
    // And the open leads' words, the global search's newest leads (0103).
    await c.query('select crm_lead_words_rebuild()');
    log(`  open leads' words (${t()})`);
    // And the properties' words, the global search's properties (0124).
    await c.query('select crm_object_words_rebuild()');
    log(`  properties' words (${t()})`);
    for (const def of indexes) {
      const t0 = Date.now();
      await c.query(def);
      if (Date.now() - t0 > 1500) log(`    ${((Date.now() - t0) / 1000).toFixed(1)} s  ${def.slice(0, 140)}`);
    }
    log(`  rebuilt ${indexes.length} indexes (${t()})`);
    // The load skipped the triggers that keep the list totals: count them once from the rows.
    const rebuilds = [
      'crm_account_counts_recount',
      'crm_row_counts_recount',
      // So are the agents' results kept per day and month (decision 071).
      'crm_report_rebuild',
      'crm_deal_totals_rebuild',
      // And the bookings' sums kept per month (decision 101).
      'crm_reservation_totals_rebuild',
      // And a record's mail counted per mailbox (decision 105).
      'crm_mail_counts_rebuild',
      // And each transaction's running balance on its statement (decision 112).
      'crm_transaction_balances_rebuild',
    ];
    for (const fn of rebuilds) await c.query(`select ${fn}()`);
    log(`  totals and kept figures (${t()})`);
    await c.query('delete from bench_dataset');
    await c.query(
      'insert into bench_dataset (accounts, activities, objects, leads, viewings, transactions, deals, reservations, seconds, viewing_comments) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, true)',
      [sizes.accounts, sizes.activities, sizes.objects, sizes.leads, sizes.viewings, sizes.transactions, sizes.deals, sizes.reservations, (Date.now() - started) / 1000],
    );
    await c.query('commit');
    await c.query('set session_replication_role = origin').catch(() => {});
    // Statistics for the planner and the visibility map for index-only scans (counts).
    await c.query(`vacuum (analyze) ${TABLES.join(', ')}, users`);
    log(`  vacuum analyze done; total ${t()}`);
    return { generated: true, seconds: (Date.now() - started) / 1000 };
  } catch (e) {
    await c.query('rollback').catch(() => {});
    throw e;
  } finally {
    await c.end();
  }
}

async function main() {
  const sizes = parseSizes(process.argv.slice(2));
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data/bench');
  fs.mkdirSync(dataDir, { recursive: true });
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const db = await openBenchDatabase({ dataDir, log });
  log(`Database: ${db.describe}`);
  try {
    await ensureLargeData(db.url, sizes, { force: sizes.force, log });
  } finally {
    await db.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
