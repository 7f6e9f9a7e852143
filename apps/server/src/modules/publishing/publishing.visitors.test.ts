import { Readable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, alerts, files, leadObjects, leads, locations, objects, siteSettings } from '../../db/schema/index.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, patchField } from '../../../test/harness.ts';
import { insertObject, leadsOfEmail, sendEnquiry } from '../../../test/records.ts';
import { runPublish } from './publishing.service.ts';
import { PublicPageCache } from './public.cache.ts';

/**
 * The public site's defects a visitor met (decision 022): the terms its footer links to, a deleted
 * or withdrawn property's page kept a while and the enquiry sent from it, a long message cut, the
 * enquiry limits, the photos' names and the not-found page's language links.
 */
const t = await createTestApp();
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

const [region] = await db.insert(locations).values({ level: 1, nameEn: 'Thessaloniki', nameEl: 'Θεσσαλονίκη', nameRu: 'Салоники', path: [] }).returning();
await db.update(locations).set({ path: [region!.id] }).where(eq(locations.id, region!.id));

const storage = getFileStorage(t.dataDir);
let photoSeq = 0;
async function publishedObject(values: Record<string, unknown> = {}) {
  const o = await insertObject(db, { title: 'Flat by the sea', description: 'Two bedrooms.', forSale: true, salePrice: 150000, area: 70, locationId: region!.id, active: true, publishRequested: true, ...values });
  const n = ++photoSeq;
  const systemName = `v${n}-${Date.now()}.jpg`;
  await storage.put(`v${n}-web.webp`, Readable.from(Buffer.from(`web copy ${n}`)));
  await storage.put(`v${n}-thumb.webp`, Readable.from(Buffer.from(`thumbnail ${n}`)));
  await db.insert(files).values({
    systemName,
    userName: 'IMG_1.jpg',
    mime: 'image/jpeg',
    size: 100,
    parentType: LinkKind.Object,
    parentId: o.id,
    type: 'image',
    webName: `v${n}-web.webp`,
    thumbName: `v${n}-thumb.webp`,
  });
  expect((await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } })).state).toBe('published');
  app.publicPages.clear();
  return { id: o.id, n: o.ref, ref: String(o.ref).padStart(4, '0'), systemName, photo: n };
}

const page = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
let ip = 1;
const send = (ref: string, form: Record<string, string>, opts: { address?: string; lang?: string } = {}) =>
  sendEnquiry(app, ref, form, { address: opts.address ?? `10.9.${Math.floor(ip / 200)}.${ip++ % 200}`, lang: opts.lang });
const leadsOf = (email: string) => leadsOfEmail(db, email);
const countLeads = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n;
/**
 * The answer once `ok` holds, asked again until it does (the database's notice comes right after
 * the commit); at most 5 s, well short of the 30 s the page cache keeps a page without one.
 */
const soon = <T>(ask: () => Promise<T>, ok: (v: T) => boolean): Promise<T> =>
  vi.waitFor(
    async () => {
      const v = await ask();
      if (!ok(v)) throw new Error('not yet');
      return v;
    },
    { timeout: 5000, interval: 20 },
  );
const textarea = (body: string) => /<textarea id="c-message"[^>]*>([^<]*)<\/textarea>/.exec(body)?.[1];

describe("the site's terms", () => {
  it('are its own page for visitors, in their language, linked from every page instead of the staff terms', async () => {
    const o = await publishedObject({ title: 'Terms reader' });
    for (const [lang, title, kept] of [
      ['en', 'Terms of use', 'When you send an enquiry, we keep your name'],
      ['el', 'Όροι χρήσης', 'Όταν μας στέλνετε αίτημα, καταχωρίζουμε'],
      ['ru', 'Условия использования', 'Когда вы отправляете запрос, мы сохраняем'],
    ] as const) {
      for (const url of [`/listings?lang=${lang}`, `/listings/${o.ref}?lang=${lang}`, `/listings/99999999?lang=${lang}`]) {
        const body = (await page(url)).body;
        expect(body, url).toContain(`<a href="/listings/terms?lang=${lang}" data-testid="site-terms">${title}</a>`);
        expect(body, url).not.toContain('/terms.htm');
      }
      // Beside the form, a link to what is done with its details.
      expect((await page(`/listings/${o.ref}?lang=${lang}`)).body).toContain(`href="/listings/terms?lang=${lang}#enquiries"`);
      const terms = await page(`/listings/terms?lang=${lang}`);
      expect(terms.statusCode).toBe(200);
      expect(terms.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(terms.body).toContain(`<html lang="${lang}"`);
      expect(terms.body).toContain(`<h1>${title}</h1>`);
      expect(terms.body).toContain(kept);
      expect(terms.body).toContain('id="enquiries"');
      // The staff's terms say nothing of the site's visitors.
      expect(terms.body).not.toContain('sign-in');
    }
    // Without ?lang, the browser's language; the way to ask about one's details is the agency's e-mail when set.
    await db.insert(siteSettings).values({ id: 1, email: 'privacy@agency.example' }).onConflictDoUpdate({ target: siteSettings.id, set: { email: 'privacy@agency.example' } });
    const el = await soon(
      () => page('/listings/terms', { 'accept-language': 'el-GR,el;q=0.9' }),
      (r) => r.body.includes('privacy@agency.example'),
    );
    expect(el.body).toContain('<html lang="el"');
    expect(el.body).toContain('Γράψτε μας στο <a href="mailto:privacy@agency.example" data-testid="terms-email">privacy@agency.example</a>');
  });
});

describe('a property deleted or withdrawn while its page is open', () => {
  it('leaves the site at once: its page and the list are not answered from the page cache any more', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const gone = await publishedObject({ title: 'Deleted while cached' });
    const withdrawn = await publishedObject({ title: 'Withdrawn while cached' });
    for (const o of [gone, withdrawn]) expect((await page(`/listings/${o.ref}?lang=en`)).statusCode).toBe(200);
    expect((await page('/listings?lang=en')).body).toContain('Deleted while cached');
    expect((await page(`/api/public/listings/${gone.ref}`)).statusCode).toBe(200);

    const del = await admin.del(`/api/object/${gone.id}`);
    expect(del.statusCode, del.body).toBe(200);
    // At once (the cache kept pages 30 s, whatever happened to them; a delete runs no publishing work).
    expect((await soon(() => page(`/listings/${gone.ref}?lang=en`), (r) => r.statusCode === 410)).statusCode).toBe(410);
    expect((await soon(() => page(`/api/public/listings/${gone.ref}`), (r) => r.statusCode === 410)).statusCode).toBe(410);
    expect((await page('/listings?lang=en')).body).not.toContain('Deleted while cached');
    // Unticked in the CRM: no waiting for the publishing work to run.
    expect((await page(`/listings/${withdrawn.ref}?lang=en`)).statusCode).toBe(200);
    const res = await patchField(agent, 'object', withdrawn.id, 'publishRequested', false);
    expect(res.statusCode, res.body).toBe(200);
    expect((await soon(() => page(`/listings/${withdrawn.ref}?lang=en`), (r) => r.statusCode === 410)).statusCode).toBe(410);
    expect((await page('/listings?lang=en')).body).not.toContain('Withdrawn while cached');
  });

  it('leaves the site at once when changed behind this instance (by another instance, or in SQL): the database tells it', async () => {
    const o = await publishedObject({ title: 'Made inactive elsewhere' });
    expect((await page(`/listings/${o.ref}?lang=el`)).statusCode).toBe(200);
    await db.update(objects).set({ active: false } as never).where(eq(objects.id, o.id));
    expect((await soon(() => page(`/listings/${o.ref}?lang=el`), (r) => r.statusCode === 410)).statusCode).toBe(410);
  });

  it('does not keep a page read before a change and finished after it', () => {
    const cache = new PublicPageCache<string>();
    const since = cache.mark();
    cache.clear(); // the change, while the page was being made
    cache.set('el /listings/0001', 'stale', since);
    expect(cache.get('el /listings/0001')).toBeUndefined();
    cache.set('el /listings/0001', 'fresh', cache.mark());
    expect(cache.get('el /listings/0001')).toBe('fresh');
  });

  it('does not keep an answer of the public API read before a change and finished after it', async () => {
    const [town] = await db.insert(locations).values({ level: 1, nameEn: 'Veria', nameEl: 'Βέροια', nameRu: 'Верия', path: [] }).returning();
    await db.update(locations).set({ path: [town!.id] }).where(eq(locations.id, town!.id));
    await publishedObject({ title: 'Veria one', locationId: town!.id });
    const second = await publishedObject({ title: 'Veria two', locationId: town!.id });
    const url = `/api/public/listings?place=${town!.id}&perPage=1&currentPage=2`;
    expect((await page(url)).json().totalRows).toBe(2);
    app.publicPages.clear();
    const lockWaits = async () =>
      (await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`)).rows[0]!.n;
    let answer: ReturnType<typeof page> | undefined;
    // The second page is counted, then read (the photos too): the reading waits while the property is withdrawn.
    await db.transaction(async (tx) => {
      await tx.execute(sql`lock table files in access exclusive mode`);
      answer = page(url);
      await vi.waitFor(async () => expect(await lockWaits()).toBeGreaterThan(0), { timeout: 10_000, interval: 25 });
      // Withdrawn (another connection): the database's notice empties the cache before the answer is made.
      app.publicPages.set('sentinel', 'kept until the notice', app.publicPages.mark());
      await t.pool.query('update objects set active = false where id = $1', [second.id]);
      await vi.waitFor(() => expect(app.publicPages.get('sentinel')).toBeUndefined(), { timeout: 2000, interval: 10 });
    });
    // Counted before the change, its total is stale: answered once, but not kept.
    expect((await answer!).json().totalRows).toBe(2);
    expect((await page(url)).json().totalRows).toBe(1);
  });

  it('keeps an enquiry about a property deleted since: a lead naming it, an alert, and thanks on a page that says it is gone', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const o = await publishedObject({ title: 'Sold and deleted' });
    expect((await admin.del(`/api/object/${o.id}`)).statusCode).toBe(200);
    const res = await send(o.ref, { name: 'Petros Late', email: 'petros.late@example.gr', phone: '6944 000111', message: 'Is it still for sale?' }, { lang: 'el' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    expect(res.headers.location).toBe(`/listings/${o.ref}?lang=el&sent=1#contact`);
    const thanks = await page(res.headers.location as string);
    expect(thanks.statusCode).toBe(200);
    expect(thanks.headers['cache-control']).toBe('no-store');
    expect(thanks.body).toContain(`<h1>Το ακίνητο ${o.ref} δεν είναι πλέον στην ιστοσελίδα μας</h1>`);
    expect(thanks.body).toContain('data-testid="contact-sent"');
    expect(thanks.body).toContain('<meta name="robots" content="noindex">');
    const [lead] = await leadsOf('petros.late@example.gr');
    expect(String((lead as Record<string, unknown>).description)).toBe(
      [`Αίτημα από την ιστοσελίδα για το ακίνητο ${o.ref} (στάλθηκε όταν το ακίνητο είχε ήδη διαγραφεί)`, 'Is it still for sale?', 'Ονοματεπώνυμο: Petros Late', 'Διεύθυνση e-mail: petros.late@example.gr', 'Τηλέφωνο: 6944 000111'].join('\n'),
    );
    expect(await db.select().from(leadObjects).where(eq(leadObjects.leadId, lead!.id))).toEqual([]);
    const [told] = await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead!.id)));
    expect(told).toMatchObject({ source: 'Website', messageKey: 'alerts.msg.websiteEnquiryDeleted' });
    const opened = (await agent.get(`/api/alert/${told!.id}`, { lang: 'en' })).json();
    expect(opened.content).toBe(`New website enquiry about property #${o.ref}, which has been deleted, from Petros Late (petros.late@example.gr); it is among the new leads, without the property.`);
  });

  it('keeps an enquiry about a property withdrawn since, with the property on the lead; its form errors keep what was typed', async () => {
    const o = await publishedObject({ title: 'Withdrawn, still asked about', forRent: true, rentPrice: 800 });
    await db.update(objects).set({ publishRequested: false } as never).where(eq(objects.id, o.id));
    const before = await countLeads();
    // A mistyped e-mail: the form again, on the page that says the property is gone, with the words kept.
    const bad = await send(o.ref, { name: 'Olga Late', email: 'olga.late@', message: 'Можно посмотреть в субботу?' }, { lang: 'ru' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(`<h1>Объекта ${o.ref} больше нет на нашем сайте</h1>`);
    expect(bad.body).toContain('value="olga.late@"');
    expect(textarea(bad.body)).toBe('Можно посмотреть в субботу?');
    expect(bad.body).toContain('aria-invalid="true"');
    expect(await countLeads()).toBe(before);
    const ok = await send(o.ref, { name: 'Olga Late', email: 'olga.late@example.ru', message: 'Можно посмотреть в субботу?' }, { lang: 'ru' });
    expect(ok.statusCode).toBe(303);
    const [lead] = await leadsOf('olga.late@example.ru');
    expect(lead).toMatchObject({ forPurchase: true, forRent: true });
    expect(String((lead as Record<string, unknown>).description)).toMatch(new RegExp(`^Αίτημα από την ιστοσελίδα για το ακίνητο ${o.ref} \\(στάλθηκε όταν το ακίνητο είχε ήδη αποσυρθεί από την ιστοσελίδα\\)\n`));
    expect(await db.select().from(leadObjects).where(eq(leadObjects.leadId, lead!.id))).toMatchObject([{ objectId: o.id }]);
    const [told] = await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead!.id)));
    expect(told).toMatchObject({ messageKey: 'alerts.msg.websiteEnquiryWithdrawn' });
    const thanks = await page(ok.headers.location as string);
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Спасибо! Мы получили ваше сообщение');
  });

  it('answers an enquiry naming a reference number never given with "not found", and keeps nothing', async () => {
    const before = await countLeads();
    const res = await send('987654', { name: 'Made Up', email: 'made.up@example.com', message: 'Hello' });
    expect(res.statusCode).toBe(404);
    expect(await countLeads()).toBe(before);
    expect((await page('/listings/987654?lang=en&sent=1')).statusCode).toBe(404);
  });

  it('answers an enquiry about a property never on the site (a draft, one refused, one deleted) as about a number never given, and keeps nothing', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const draft = async (values: Record<string, unknown> = {}) => {
      const [o] = await db
        .insert(objects)
        .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, title: 'Not yet on the site', forSale: true, salePrice: 90000, locationId: region!.id, active: true, ...values } as never)
        .returning({ id: objects.id, n: objects.referenceNumber });
      return { id: o!.id, ref: String(o!.n).padStart(4, '0') };
    };
    const plain = await draft();
    // Asked to be published, refused by publishing (no photo, no description): never on the site.
    const refused = await draft({ publishRequested: true });
    expect((await runPublish(db, { objectId: refused.id, actor: { id: null, name: 'test' } })).state).toBe('refused');
    const deleted = await draft();
    expect((await admin.del(`/api/object/${deleted.id}`)).statusCode).toBe(200);
    const form = { name: 'Curious Visitor', email: 'curious.visitor@example.com', message: 'Is this one for sale?' };
    const unknown = await send('987654', form);
    expect(unknown.statusCode).toBe(404);
    const leadsBefore = await countLeads();
    const accountsBefore = (await db.select({ n: sql<number>`count(*)::int` }).from(accounts))[0]!.n;
    for (const o of [plain, refused, deleted]) {
      const res = await send(o.ref, form);
      expect(res.statusCode, o.ref).toBe(404);
      // The same page as for a number never given: nothing says the number is the office's.
      expect(res.body.replaceAll(o.ref, 'REF'), o.ref).toBe(unknown.body.replaceAll('987654', 'REF'));
      const thanks = await page(`/listings/${o.ref}?lang=en&sent=1`);
      expect(thanks.statusCode, o.ref).toBe(404);
      expect(thanks.body).not.toContain('data-testid="contact-sent"');
    }
    expect(await countLeads()).toBe(leadsBefore);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(accounts))[0]!.n).toBe(accountsBefore);
    expect(await leadsOf('curious.visitor@example.com')).toEqual([]);
  });

  it('keeps an enquiry about a property deleted since that was on the site without a publishing in its history (demo or imported data)', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const [o] = await db
      .insert(objects)
      .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, title: 'Imported, on the site', forSale: true, salePrice: 90000, active: true, publishRequested: true, published: true } as never)
      .returning({ id: objects.id, n: objects.referenceNumber });
    const ref = String(o!.n).padStart(4, '0');
    expect((await admin.del(`/api/object/${o!.id}`)).statusCode).toBe(200);
    const res = await send(ref, { name: 'Late Buyer', email: 'late.buyer@example.com', message: 'Still there?' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    expect((await page(res.headers.location as string)).body).toContain('data-testid="contact-sent"');
    expect(await leadsOf('late.buyer@example.com')).toHaveLength(1);
  });
  it('keeps an enquiry about a property on the site without a publishing in its history, refused since (its page still open), and once deleted', async () => {
    const admin = await t.user({ roles: ['admin'] });
    // Imported as published; a change makes it incomplete (no photo): publishing takes it off the site.
    const [o] = await db
      .insert(objects)
      .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, title: 'Imported, then refused', forSale: true, salePrice: 90000, active: true, publishRequested: true, published: true } as never)
      .returning({ id: objects.id, n: objects.referenceNumber });
    const ref = String(o!.n).padStart(4, '0');
    expect((await runPublish(db, { objectId: o!.id, actor: { id: null, name: 'test' } })).state).toBe('refused');
    const withdrawn = await send(ref, { name: 'Early Buyer', email: 'early.buyer@example.com', message: 'Is it still for sale?' });
    expect(withdrawn.statusCode, withdrawn.body.slice(0, 300)).toBe(303);
    expect(await leadsOf('early.buyer@example.com')).toHaveLength(1);
    expect((await admin.del(`/api/object/${o!.id}`)).statusCode).toBe(200);
    const deleted = await send(ref, { name: 'Late Buyer', email: 'later.buyer@example.com', message: 'Still there?' });
    expect(deleted.statusCode, deleted.body.slice(0, 300)).toBe(303);
    expect((await page(deleted.headers.location as string)).body).toContain('data-testid="contact-sent"');
    expect(await leadsOf('later.buyer@example.com')).toHaveLength(1);
  });
});

describe('the page of a property that was on the site and is not now', () => {
  it('says it is no longer on the site, takes an enquiry, and shows similar properties: never a bare "not found"', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const [west] = await db.insert(locations).values({ level: 1, nameEn: 'Kavala', nameEl: 'Καβάλα', nameRu: 'Кавала', path: [] }).returning();
    await db.update(locations).set({ path: [west!.id] }).where(eq(locations.id, west!.id));
    const here = { locationId: west!.id };
    const gone = await publishedObject({ title: 'Kavala flat, withdrawn', ...here });
    const deleted = await publishedObject({ title: 'Kavala flat, deleted', ...here });
    const like = await publishedObject({ title: 'Kavala flat, still for sale', ...here });
    const shop = await publishedObject({ title: 'Kavala shop', subTypeObjectTypeId: 2, objectSubTypeId: 8, ...here });
    const toLet = await publishedObject({ title: 'Kavala flat to let', forSale: false, salePrice: null, forRent: true, rentPrice: 600, ...here });
    const elsewhere = await publishedObject({ title: 'Flat in Thessaloniki' });
    const withdraw = await patchField(agent, 'object', gone.id, 'publishRequested', false);
    expect(withdraw.statusCode, withdraw.body).toBe(200);
    await runPublish(db, { objectId: gone.id, actor: { id: null, name: 'test' } });
    expect((await admin.del(`/api/object/${deleted.id}`)).statusCode).toBe(200);
    app.publicPages.clear();

    for (const o of [gone, deleted]) {
      const res = await page(`/listings/${o.ref}?lang=el`);
      // 410: gone for good (search engines drop it); the visitor reads why and what else there is.
      expect(res.statusCode, o.ref).toBe(410);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain(`<h1>Το ακίνητο ${o.ref} δεν είναι πλέον στην ιστοσελίδα μας</h1>`);
      expect(res.body).toContain('Ίσως έχει πωληθεί, ενοικιαστεί ή αποσυρθεί. Μπορείτε πάντως να μας στείλετε το μήνυμά σας');
      expect(res.body).not.toContain('Το ακίνητο δεν βρέθηκε');
      expect(res.body).toContain(`action="/listings/${o.ref}/contact?lang=el#contact"`);
      expect(res.body).toContain('<meta name="robots" content="noindex">');
      // Similar: the same type and service in the same region, nothing else.
      const similar = /<section class="box" aria-labelledby="h-similar" data-testid="similar">.*?<\/section>/s.exec(res.body)?.[0] ?? '';
      expect(similar).toContain('<h2 id="h-similar">Παρόμοια ακίνητα στην ιστοσελίδα μας</h2>');
      const refs = [...similar.matchAll(/data-ref="(\d+)"/g)].map((m) => m[1]);
      expect(refs, o.ref).toEqual([like.ref]);
      for (const other of [shop, toLet, elsewhere, gone, deleted]) expect(refs).not.toContain(other.ref);
      expect(similar).toContain(`<a href="/listings?lang=el&amp;service=sale&amp;kind=t1&amp;place=${west!.id}" data-testid="similar-all">Δείτε όλα τα παρόμοια ακίνητα</a>`);
    }
    const en = (await page(`/listings/${gone.ref}?lang=en`)).body;
    expect(en).toContain(`<h1>Property ${gone.ref} is no longer on our website</h1>`);
    expect(en).toContain('Similar properties on our website');
    expect(en).toContain('See all similar properties');
    const ru = (await page(`/listings/${gone.ref}?lang=ru`)).body;
    expect(ru).toContain(`<h1>Объекта ${gone.ref} больше нет на нашем сайте</h1>`);
    expect(ru).toContain('Похожие объекты на нашем сайте');
    expect(ru).toContain('Все похожие объекты');
    // The public API says the same: gone (410), not unknown.
    const api = await page(`/api/public/listings/${gone.ref}`, { 'accept-language': 'en' });
    expect(api.statusCode).toBe(410);
    expect(api.json().title).toBe(`Property ${gone.ref} is no longer on our website`);

    // The enquiry from that page is kept, and thanked for with the similar ones still there.
    const sent = await send(gone.ref, { name: 'Nikos Late', email: 'nikos.late@example.gr', message: 'Κάτι παρόμοιο;' }, { lang: 'el' });
    expect(sent.statusCode, sent.body.slice(0, 300)).toBe(303);
    const thanks = await page(sent.headers.location as string);
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('data-testid="contact-sent"');
    expect(thanks.body).toContain('data-testid="similar"');
    expect(await leadsOf('nikos.late@example.gr')).toHaveLength(1);
  });

  it('answers a property never on the site (a draft) with the same "not found" as a number never given', async () => {
    const [o] = await db
      .insert(objects)
      .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, title: 'A draft', forSale: true, salePrice: 90000, locationId: region!.id, active: true } as never)
      .returning({ n: objects.referenceNumber });
    const ref = String(o!.n).padStart(4, '0');
    const draft = await page(`/listings/${ref}?lang=en`);
    const unknown = await page('/listings/987654?lang=en');
    expect(draft.statusCode).toBe(404);
    expect(draft.body.replaceAll(ref, 'REF')).toBe(unknown.body.replaceAll('987654', 'REF'));
    expect(draft.body).not.toContain('data-testid="similar"');
    expect((await page(`/api/public/listings/${ref}`)).statusCode).toBe(404);
  });
});

describe("a published property's place or tenant changed", () => {
  /** The notices of the public site's channel (migration 0052) heard by a connection of our own, in commit order. */
  async function listening() {
    const client = new pg.Client({ connectionString: t.dbUrl });
    await client.connect();
    const heard: string[] = [];
    client.on('notification', (m) => heard.push(m.payload ?? ''));
    await client.query('listen crm_public_site');
    /** What was heard up to a mark sent now (every notice committed before it comes before it). */
    const upToNow = async () => {
      const mark = `mark ${Date.now()} ${Math.random()}`;
      await t.pool.query('select pg_notify($1, $2)', ['crm_public_site', mark]);
      await vi.waitFor(() => expect(heard).toContain(mark), { timeout: 2000, interval: 10 });
      const i = heard.indexOf(mark);
      return heard.splice(0, i + 1).slice(0, -1);
    };
    return { upToNow, end: () => client.end() };
  }

  it('shows a place renamed (by another instance, or in SQL) on the next page, without waiting for the cache', async () => {
    const [town] = await db.insert(locations).values({ level: 1, parentId: null, nameEn: 'Nea Moudania', nameEl: 'Νέα Μουδανιά', nameRu: 'Неа-Муданья', path: [] }).returning();
    const [unused] = await db.insert(locations).values({ level: 1, parentId: null, nameEn: 'Olynthos', nameEl: 'Όλυνθος', nameRu: 'Олинф', path: [] }).returning();
    const o = await publishedObject({ title: 'By the harbour', locationId: town!.id });
    expect((await page(`/listings/${o.ref}?lang=en`)).body).toContain('Nea Moudania');
    expect((await page('/listings?lang=en')).body).toContain('Nea Moudania');
    const news = await listening();
    try {
      await news.upToNow();
      // A place no published property is in: nothing the public sees, no notice.
      await t.pool.query(`update locations set name_en = 'Olynthos (old)' where id = $1`, [unused!.id]);
      // Written again as it was (the seed does so at every start): no notice either.
      await t.pool.query(`update locations set name_en = name_en where id = $1`, [town!.id]);
      expect(await news.upToNow()).toEqual([]);
      await t.pool.query(`update locations set name_en = 'Moudania' where id = $1`, [town!.id]);
      expect(await news.upToNow()).toEqual(['']);
    } finally {
      await news.end();
    }
    const renamed = await soon(() => page(`/listings/${o.ref}?lang=en`), (r) => !r.body.includes('Nea Moudania'));
    expect(renamed.body).not.toContain('Nea Moudania');
    expect(renamed.body).toContain('Moudania');
    expect((await page('/listings?lang=en')).body).not.toContain('Nea Moudania');
  });

  it('says it is let once a tenant is linked (by another instance, or in SQL), without waiting for the cache', async () => {
    const o = await publishedObject({ title: 'Let while cached', forSale: false, forRent: true, rentPrice: 700, salePrice: null });
    const draft = (await db.insert(objects).values({ referenceNumber: sql`nextval('objects_reference_number_seq')` } as never).returning({ id: objects.id }))[0]!;
    const [tenant] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Tenant' }).returning({ id: accounts.id });
    expect((await page(`/listings/${o.ref}?lang=en`)).body).not.toContain('data-testid="available-from"');
    const news = await listening();
    try {
      await news.upToNow();
      // A property not published: nothing the public sees, no notice.
      await t.pool.query(`insert into object_accounts (object_id, account_id, relation) values ($1, $2, 4)`, [draft.id, tenant!.id]);
      expect(await news.upToNow()).toEqual([]);
      await t.pool.query(`insert into object_accounts (object_id, account_id, relation) values ($1, $2, 4)`, [o.id, tenant!.id]);
      expect(await news.upToNow()).toEqual(['']);
    } finally {
      await news.end();
    }
    const letNow = await soon(() => page(`/listings/${o.ref}?lang=en`), (r) => r.body.includes('data-testid="available-from"'));
    expect(letNow.body).toContain('data-testid="available-from"');
    // The tenant gone: free again at once.
    await t.pool.query(`delete from object_accounts where object_id = $1 and relation = 4`, [o.id]);
    const free = await soon(() => page(`/listings/${o.ref}?lang=en`), (r) => !r.body.includes('data-testid="available-from"'));
    expect(free.body).not.toContain('data-testid="available-from"');
  });
});

describe('a long message', () => {
  it('is never cut: the form says the limit and has no maxlength, and a longer one is refused with its whole text kept', async () => {
    const o = await publishedObject({ title: 'Long letters' });
    const form = (await page(`/listings/${o.ref}?lang=en`)).body;
    const box = /<textarea id="c-message"[^>]*>/.exec(form)![0];
    expect(box).not.toContain('maxlength');
    expect(box).toContain('aria-describedby="c-message-hint"');
    expect(form).toContain('<div class="hint" id="c-message-hint"><span>At most 2\u00a0000 characters.</span>');
    expect((await page(`/listings/${o.ref}?lang=el`)).body).toContain('<span>Έως 2\u00a0000 χαρακτήρες.</span>');

    const before = await countLeads();
    const long = `${'Ask about the parking and the storage room. '.repeat(53)}`.trim();
    expect(long.length).toBe(2331);
    for (const [lang, over, said] of [
      ['en', long, 'The message is longer than the 2\u00a0000 characters allowed: please shorten it by 331 characters.'],
      ['el', long.slice(0, 2001), 'Το μήνυμα ξεπερνά το όριο των 2\u00a0000 χαρακτήρων: συντομέψτε το κατά 1 χαρακτήρα.'],
      ['ru', long.slice(0, 2003), 'Сообщение длиннее допустимых 2\u00a0000 символов: сократите его на 3 символа.'],
    ] as const) {
      const res = await send(o.ref, { name: 'Long Writer', email: 'long.letters@example.com', message: over }, { lang });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(`<div class="err" id="c-message-err" data-testid="contact-message-error">${said}</div>`);
      expect(res.body).toContain('aria-describedby="c-message-hint c-message-err"');
      expect(textarea(res.body)).toBe(over.trim());
    }
    expect(await countLeads()).toBe(before);
    // 2000, with line breaks sent as CRLF, is taken whole.
    const exact = `${long.slice(0, 1000)}\r\n${long.slice(1000, 1999)}`;
    expect((await send(o.ref, { name: 'Long Writer', email: 'long.letters@example.com', message: exact })).statusCode).toBe(303);
    const [lead] = await leadsOf('long.letters@example.com');
    expect(String((lead as Record<string, unknown>).description)).toContain(`${long.slice(0, 1000)}\n${long.slice(1000, 1999)}\n`);
  });
});

describe('the enquiry limits', () => {
  it('take 20 an hour from one address (an office, a family), 5 of them about one property, 10 from one e-mail; a refusal keeps the text, in the visitor\'s language', async () => {
    const office = '203.0.113.40';
    const props = [await publishedObject({ title: 'L1' }), await publishedObject({ title: 'L2' }), await publishedObject({ title: 'L3' }), await publishedObject({ title: 'L4' }), await publishedObject({ title: 'L5' })];
    for (let i = 0; i < 5; i++) expect((await send(props[0]!.ref, { name: `Colleague ${i}`, email: `colleague${i}@office.example`, message: `About L1, ${i}` }, { address: office })).statusCode).toBe(303);
    // A sixth about the same property from that address: refused, saying so, the words kept.
    const sixth = await send(props[0]!.ref, { name: 'Sixth Colleague', email: 'sixth@office.example', message: 'Και για το πάρκινγκ;' }, { address: office, lang: 'el' });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.body).toContain('Την τελευταία ώρα στάλθηκαν ήδη αρκετά μηνύματα για αυτό το ακίνητο από τη σύνδεσή σας');
    expect(sixth.body).toContain('value="sixth@office.example"');
    expect(textarea(sixth.body)).toBe('Και για το πάρκινγκ;');
    // Other properties from the same address: 20 in all (the refused sixth counted too).
    for (let i = 0; i < 14; i++) {
      const res = await send(props[1 + (i % 4)]!.ref, { name: `Relative ${i}`, email: `relative${i}@family.example`, message: `Hello ${i}` }, { address: office });
      expect(res.statusCode, `enquiry ${i + 7}`).toBe(303);
    }
    const over = await send(props[4]!.ref, { name: 'One Too Many', email: 'too.many@family.example', message: 'Is it free?' }, { address: office, lang: 'ru' });
    expect(over.statusCode).toBe(429);
    expect(over.body).toContain('За последний час с вашего подключения или адреса эл. почты отправлено слишком много сообщений');
    expect(textarea(over.body)).toBe('Is it free?');
    expect(await leadsOf('too.many@family.example')).toEqual([]);
    // Another address still gets through.
    expect((await send(props[4]!.ref, { name: 'Neighbour', email: 'neighbour@example.com', message: 'Hi' })).statusCode).toBe(303);

    // One buyer asking about several properties from several connections: ten an hour.
    for (let i = 0; i < 10; i++) expect((await send(props[i % 5]!.ref, { name: 'Busy Buyer', email: 'busy.buyer@example.com', message: `Question ${i}` })).statusCode).toBe(303);
    const eleventh = await send(props[0]!.ref, { name: 'Busy Buyer', email: 'busy.buyer@example.com', message: 'Question 11' });
    expect(eleventh.statusCode).toBe(429);
    expect(await leadsOf('busy.buyer@example.com')).toHaveLength(10);
  });
});

describe("a property's photos", () => {
  it('are addressed by the copy served, whose extension is its format, in the page, the API and the feed', async () => {
    const o = await publishedObject({ title: 'Photo names' });
    const body = (await page(`/listings/${o.ref}?lang=en`)).body;
    expect(body).toContain(`<img src="/listings/photo/v${o.photo}-web.webp"`);
    expect(body).not.toContain(o.systemName);
    const list = (await page('/listings?lang=en')).body;
    expect(list).toContain(`<img src="/listings/photo/v${o.photo}-thumb.webp"`);
    const api = (await page(`/api/public/listings/${o.ref}`)).json();
    expect(api.photos).toEqual([{ web: `/listings/photo/v${o.photo}-web.webp`, thumb: `/listings/photo/v${o.photo}-thumb.webp` }]);
    expect((await page('/feed/listings.xml')).body).toContain(`/listings/photo/v${o.photo}-web.webp</photo>`);
    const thumb = await page(`/listings/photo/v${o.photo}-thumb.webp`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.body).toBe(`thumbnail ${o.photo}`);
    // An address of before (the original's .jpg name) leads to the copy's own, for good.
    const old = await page(`/listings/photo/${o.systemName}?size=thumb`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/listings/photo/v${o.photo}-thumb.webp`);
    expect((await page(`/listings/photo/${o.systemName}`)).headers.location).toBe(`/listings/photo/v${o.photo}-web.webp`);
  });
});

describe('the not-found page', () => {
  it('links each language to the same address in that language, not to the list', async () => {
    const res = await page('/listings/0999999?lang=en');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<h1>Property not found</h1>');
    expect(res.body).toContain('<a href="/listings/0999999?lang=el" lang="el" hreflang="el" >Ελληνικά</a>');
    expect(res.body).toContain('<a href="/listings/0999999?lang=ru" lang="ru" hreflang="ru" >Русский</a>');
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    const el = await page('/listings/0999999?lang=el&utm_source=mail');
    expect(el.body).toContain('<h1>Το ακίνητο δεν βρέθηκε</h1>');
    expect(el.body).toContain('<a href="/listings/0999999?lang=en&amp;utm_source=mail" lang="en" hreflang="en" >English</a>');
  });
});

describe('the full-screen photos', () => {
  it('are a dialog named in the page\'s language, with close, previous and next buttons, opened by a button the script shows', async () => {
    const o = await publishedObject({ title: 'Big photos' });
    const n = ++photoSeq;
    await storage.put(`v${n}-web.webp`, Readable.from(Buffer.from('second')));
    await db.insert(files).values({ systemName: `v${n}.jpg`, userName: 'IMG_2.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: o.id, type: 'image', webName: `v${n}-web.webp`, thumbName: `v${n}-web.webp`, sortOrder: 9 });
    app.publicPages.clear();
    for (const [lang, name, full, close, next] of [
      ['en', 'Photos: Big photos', 'Full screen', 'Close', 'Next photo'],
      ['el', 'Φωτογραφίες: Big photos', 'Πλήρης οθόνη', 'Κλείσιμο', 'Επόμενη φωτογραφία'],
      ['ru', 'Фотографии: Big photos', 'На весь экран', 'Закрыть', 'Следующее фото'],
    ] as const) {
      const body = (await page(`/listings/${o.ref}?lang=${lang}`)).body;
      expect(body).toContain(`<dialog class="lightbox" id="lightbox" aria-label="${name}" data-testid="lightbox">`);
      expect(body).toMatch(new RegExp(`<button type="button" class="gallery-full" aria-haspopup="dialog" aria-controls="lightbox" data-testid="gallery-full" hidden><svg[^]*?</svg><span>${full}</span></button>`));
      expect(body).toContain(`aria-label="${close}" data-testid="lightbox-close"`);
      expect(body).toContain(`aria-label="${next}" data-testid="lightbox-next"`);
    }
  });
});
