import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { seedDemo } from './demo.ts';
import { GREEK_FEMALE, GREEK_SURNAMES, makeAfm } from './demo-names.ts';

type Counts = { accounts: number; activities: number; links: number; assignments: number };

describe('demo agency', () => {
  it('loads a believable agency once: people of every kind, their activities and assignments', async () => {
    // The whole demo agency, seeded twice (the second time must add nothing): minutes on a busy machine.
    const t = await createTestApp();
    const admin = await t.user({ roles: ['admin'] });
    const counts = async () =>
      (
        await t.db.execute(sql`select (select count(*)::int from accounts) as accounts, (select count(*)::int from activities) as activities,
          (select count(*)::int from activity_links) as links, (select count(*)::int from assignments) as assignments`)
      ).rows[0] as Counts;

    // accounts, and the properties with their drawn photos (made once per data directory)
    await seedDemo(t.app);
    const first = await counts();
    expect(first.accounts).toBeGreaterThan(300);
    expect(first.activities).toBeGreaterThan(800);
    await seedDemo(t.app);
    expect(await counts()).toEqual(first);

    // Its alerts are about real demo properties, link to them, and read in the reader's language,
    // sources too (no English left in a Greek or Russian list).
    const about = (
      await t.db.execute(sql`select a.message_key as key, o.reference_number as ref, o.published, o.publish_error is not null as refused,
        exists (select 1 from object_accounts l where l.object_id = o.id and l.relation in (4, 7)) as rented
        from alerts a join objects o on o.id = a.entity_id where a.entity = 'Object' and a.dedup_key is null order by a.message_key`)
    ).rows as { key: string; ref: number; published: boolean; refused: boolean; rented: boolean }[];
    expect(about.map((a) => a.key)).toEqual(['alerts.msg.rentDueIn', 'alerts.msg.websiteEnquiry', 'publishing.alert.refused']);
    const [rent, enquiry, refused] = about as [(typeof about)[0], (typeof about)[0], (typeof about)[0]];
    expect([enquiry.published, rent.rented, refused.refused]).toEqual([true, true, true]);
    const ref = (n: number) => String(n).padStart(4, '0');
    for (const [lang, words] of [
      ['el', [`Νέο αίτημα από την ιστοσελίδα για το ακίνητο #${ref(enquiry.ref)}`, 'Υπενθύμιση μισθώματος', `Το ακίνητο #${ref(refused.ref)} δεν δημοσιεύτηκε`, `#${ref(rent.ref)}`, 'σε 2 ημέρες']],
      ['ru', [`Новый запрос с сайта по объекту #${ref(enquiry.ref)}`, 'Напоминание об аренде', `Объект #${ref(refused.ref)} не опубликован`, 'через 2 дня']],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/alert/list', payload: { perPage: 1000, currentPage: 1 }, headers: { authorization: `Bearer ${admin.token}`, 'accept-language': lang } });
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json().items as { source: string; content: string }[];
      // The demo's three, and what the system's checks told of its week (rent due, keys out, to-dos past their date).
      expect(items.length).toBeGreaterThan(3);
      for (const w of words) expect(items.some((i) => i.content.includes(w)), `${lang}: ${w}`).toBe(true);
      for (const i of items) {
        expect(i.content).not.toMatch(/\b(the|of|website|property)\b/i);
        expect(['Website', 'Rent', 'Publishing', 'Reservations']).not.toContain(i.source);
      }
    }

    const [kinds] = (
      await t.db.execute(sql`select
        count(*) filter (where is_employe)::int as employees,
        count(*) filter (where is_employe and role = 'admin')::int as admins,
        count(*) filter (where is_employe and branch_id = 1)::int as branch,
        count(*) filter (where is_employe and cardinality(emails) = 0)::int as employees_without_email,
        count(*) filter (where is_source and is_company and company_type is not null)::int as sources,
        count(*) filter (where is_client and service between 1 and 5 and source_id is not null)::int as clients,
        count(*) filter (where is_client and purchase_budget_range_max is not null)::int as budgets,
        count(*) filter (where is_professional and (is_lawyer or is_notary or is_construction_engineer or is_electrician or is_plumber or is_translator or is_accountant))::int as specialists,
        count(*) filter (where is_partner_real_estate or is_partner_tourism)::int as partners,
        count(*) filter (where is_owner)::int as owners,
        count(*) filter (where created_by = ${admin.id})::int as by_admin,
        count(*) filter (where created_on < now() - interval '600 days')::int as old,
        count(*) filter (where created_on > now())::int as future
        from accounts`)
    ).rows as Record<string, number>[];
    expect(kinds).toMatchObject({ admins: 1, branch: 1, employees_without_email: 0, future: 0 });
    expect(kinds!.employees).toBeGreaterThanOrEqual(6);
    expect(kinds!.employees).toBeLessThanOrEqual(10);
    expect(kinds!.sources).toBeGreaterThanOrEqual(6);
    // The site's enquiries come from the agency's own website, a source account.
    const enquiries = (await t.db.execute(sql`select a.display_name as name, a.is_source from site_settings s join accounts a on a.id = s.enquiry_source_id`)).rows;
    expect(enquiries).toEqual([{ name: 'Ιστοσελίδα thermaikos-homes.gr', is_source: true }]);
    expect(kinds!.clients).toBeGreaterThan(100);
    expect(kinds!.budgets).toBeGreaterThan(80);
    expect(kinds!.specialists).toBeGreaterThan(20);
    expect(kinds!.partners).toBeGreaterThan(10);
    expect(kinds!.owners).toBeGreaterThan(100);
    expect(kinds!.by_admin).toBe(first.accounts);
    expect(kinds!.old).toBeGreaterThan(0);

    // A Greek woman carries the feminine form of her surname; Russians have their Latin names too.
    const femaleNames = new Set(GREEK_FEMALE.map((f) => f[0]));
    const people = (await t.db.execute(sql`select first_name, last_name from accounts where first_name is not null`)).rows as { first_name: string; last_name: string }[];
    const women = people.filter((p) => femaleNames.has(p.first_name));
    const feminine = new Set(GREEK_SURNAMES.map((s) => s[1]));
    expect(women.length).toBeGreaterThan(20);
    expect(women.filter((w) => !feminine.has(w.last_name))).toEqual([]);
    const [russians] = (await t.db.execute(sql`select count(*)::int as n, count(*) filter (where last_name_eng ~ '^[A-Za-z]+$')::int as latin from accounts where last_name ~ '[А-Яа-яЁё]'`)).rows as { n: number; latin: number }[];
    expect(russians!.n).toBeGreaterThan(10);
    expect(russians!.latin).toBe(russians!.n);
    // Tax numbers are 9 digits with a correct check digit.
    const afms = (await t.db.execute(sql`select tax_number from accounts where tax_number is not null`)).rows as { tax_number: string }[];
    expect(afms.length).toBeGreaterThan(100);
    expect(afms.filter((a) => !/^\d{9}$/.test(a.tax_number) || makeAfm(a.tax_number.slice(0, 8)) !== a.tax_number)).toEqual([]);
    // Global search finds them by an unaccented Greek fragment.
    const [found] = (await t.db.execute(sql`select count(*)::int as n from accounts where search_text like '%' || crm_search_norm('παπαδοπουλ') || '%'`)).rows as { n: number }[];
    expect(found!.n).toBeGreaterThan(0);

    // Activities: linked to accounts (entity 2), to-dos planned in the coming days and assigned to employees.
    const [acts] = (
      await t.db.execute(sql`select
        count(*) filter (where done = false and date > now() and date < now() + interval '12 days')::int as coming,
        count(*) filter (where done = false and (assigned_to is null or assigned_to not in (select id from accounts where is_employe)))::int as unassigned_todos,
        count(*) filter (where done and done_date is null)::int as done_without_date,
        count(*) filter (where not exists (select 1 from activity_links l where l.activity_id = activities.id and l.entity = 2 and l.position = 0))::int as unlinked
        from activities`)
    ).rows as Record<string, number>[];
    expect(acts!.coming).toBeGreaterThan(20);
    expect(acts).toMatchObject({ unassigned_todos: 0, done_without_date: 0, unlinked: 0 });
    const [assigned] = (
      await t.db.execute(sql`select count(*)::int as n, count(*) filter (where parent not in (1, 2, 3) or account_id not in (select id from accounts where is_employe))::int as wrong from assignments`)
    ).rows as { n: number; wrong: number }[];
    expect(assigned!.n).toBeGreaterThan(100);
    expect(assigned!.wrong).toBe(0);
  }, 120_000);

  it('leaves an agency that already has accounts alone', async () => {
    const t = await createTestApp();
    await t.db.execute(sql`insert into accounts (first_name, last_name, is_client) values ('Ελένη', 'Καραγιάννη', true)`);
    // A demo loaded before its alerts had text keys: its alert gets them (and reads in Greek).
    await t.db.execute(sql`create table demo_seed (area text primary key, seeded_on timestamptz not null default now())`);
    await t.db.execute(sql`insert into demo_seed (area) values ('alerts')`);
    await t.db.execute(sql`insert into alerts (source, content) values ('Reservations', 'Rent for the apartment in Neapoli is due in 2 days (payment day: last day of the month).')`);
    await seedDemo(t.app);
    const [old] = (await t.db.execute(sql`select source, message_key as "messageKey" from alerts`)).rows;
    expect(old).toEqual({ source: 'Rent', messageKey: 'alerts.msg.rentDueIn' });
    const [row] = (await t.db.execute(sql`select (select count(*)::int from accounts) as accounts, (select count(*)::int from activities) as activities`)).rows as { accounts: number; activities: number }[];
    expect(row).toEqual({ accounts: 1, activities: 0 });
    const areas = (await t.db.execute(sql`select area from demo_seed order by area`)).rows as { area: string }[];
    expect(areas.map((a) => a.area)).toEqual(['accounts', 'alerts', 'alerts-texts', 'alerts-week', 'deals', 'leads', 'mandates', 'objects', 'payments', 'publishing', 'publishing-history', 'reservations']);
  });
});
