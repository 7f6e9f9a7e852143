import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, actionLog, alerts, localization, objects, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';

const t = await createTestApp();
const { app, db } = t;

describe('platform calls', () => {
  it('health checks the database', async () => {
    const res = await app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('serves every text in en, el and ru with the same keys', async () => {
    const res = await app.inject({ url: '/api/Localization' });
    const rows = res.json() as { key: string; text: string; culture: string }[];
    const keys = (c: string) => rows.filter((r) => r.culture === c).map((r) => r.key).sort();
    expect(keys('en').length).toBeGreaterThan(150);
    expect(keys('el')).toEqual(keys('en'));
    expect(keys('ru')).toEqual(keys('en'));
    const text = (key: string, c: string) => rows.find((r) => r.key === key && r.culture === c)?.text;
    expect(text('login.incorrect', 'en')).toBe('Incorrect email or password');
    expect(text('nav.owners', 'el')).toBe('Ιδιοκτήτες');
    expect(text('reset.passwordsShouldMatch', 'en')).toBe('Passwords should match');
    // no text left untranslated by mistake (identical to English), apart from words Greek uses as they are
    // (Greek listings write the floor "Laminate" in Latin letters)
    const asIs = ['app.brand', 'objectsearch.col.reference', 'objectkeys.col.reference', 'app.paymentsBrand', 'app.motto', 'common.ok', 'login.email', 'forgot.email', 'reset.email', 'files.sizeKb', 'files.sizeMb', 'fields.reservation.email', 'viewings.sheet.email', 'reservations.source.3', 'reservations.source.4', 'reservations.source.5', 'reservations.source.6', 'objects.list.floorsType.4', 'accounts.ui.add.email',
      // product names (the calendar address's instructions)
      'icalfeed.ui.how.iphone.title', 'icalfeed.ui.how.android.title', 'icalfeed.ui.how.outlook.title',
      'icalfeed.message.via.viber', 'icalfeed.message.via.whatsapp', 'icalfeed.message.via.sms'];
    const same = keys('en').filter((k) => text(k, 'el') === text(k, 'en') && !k.startsWith('lang.') && !asIs.includes(k));
    expect(same).toEqual([]);
  });

  it('serves one language on request, English filling a text it lacks, revalidated by ETag', async () => {
    const all = (await app.inject({ url: '/api/Localization' })).json() as { key: string; text: string; culture: string }[];
    const keys = [...new Set(all.map((r) => r.key))].sort();
    const el = await app.inject({ url: '/api/Localization?culture=el' });
    expect(el.statusCode).toBe(200);
    const rows = el.json() as { key: string; text: string; culture: string }[];
    expect(rows.map((r) => r.key)).toEqual(keys);
    expect(new Set(rows.map((r) => r.culture))).toEqual(new Set(['el']));
    expect(rows.find((r) => r.key === 'nav.owners')?.text).toBe('Ιδιοκτήτες');
    expect(el.headers['cache-control']).toBe('no-cache');
    const etag = String(el.headers.etag);
    expect(etag).toMatch(/^W\/"el-/);

    const same = await app.inject({ url: '/api/Localization?culture=el', headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    // Each language has its own tag.
    const ru = await app.inject({ url: '/api/Localization?culture=ru', headers: { 'if-none-match': etag } });
    expect(ru.statusCode).toBe(200);
    expect(ru.headers.etag).not.toBe(etag);

    // A text changed (an import): a new tag and the new text. A Greek text removed: English stands in.
    await t.db.update(localization).set({ text: 'Ιδιοκτήτες ακινήτων', modifiedOn: new Date() }).where(and(eq(localization.key, 'nav.owners'), eq(localization.culture, 'el')));
    await t.db.delete(localization).where(and(eq(localization.key, 'nav.clients'), eq(localization.culture, 'el')));
    const changed = await app.inject({ url: '/api/Localization?culture=el', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const next = changed.json() as { key: string; text: string; culture: string }[];
    expect(next.find((r) => r.key === 'nav.owners')).toEqual({ key: 'nav.owners', text: 'Ιδιοκτήτες ακινήτων', culture: 'el' });
    expect(next.find((r) => r.key === 'nav.clients')).toEqual({ key: 'nav.clients', text: 'Clients', culture: 'en' });
    expect(next.map((r) => r.key)).toEqual(keys);
  });

  it('tells the web app which app it is, the agency\'s clock and where the map tiles come from, and the browser may load them', async () => {
    const u = await t.user();
    const res = await u.get('/api/config');
    expect(res.statusCode).toBe(200);
    const { clock, ...rest } = res.json() as { clock: { until: number; periods: { from: number; offsetMinutes: number }[] } };
    // The agency's clock: from a day ago to more than a year ahead, each period on the offset Athens
    // really has then (UTC+2 in winter, UTC+3 in summer), changing at the hours the law sets.
    const now = Date.now();
    expect(clock.periods[0]!.from).toBeLessThanOrEqual(now - 86_400_000 + 900_000);
    expect(clock.until).toBeGreaterThan(now + 400 * 86_400_000);
    expect(clock.periods.length).toBeGreaterThanOrEqual(3);
    for (const [i, p] of clock.periods.entries()) {
      expect([120, 180]).toContain(p.offsetMinutes);
      if (i > 0) {
        expect(p.offsetMinutes).not.toBe(clock.periods[i - 1]!.offsetMinutes);
        // 01:00 UTC on a Sunday: 03:00 -> 04:00 in spring, 04:00 -> 03:00 in autumn.
        expect(new Date(p.from).toISOString()).toMatch(/T01:00:00\.000Z$/);
        expect(new Date(p.from).getUTCDay()).toBe(0);
      }
    }
    expect(rest).toEqual({
      variant: 'crm',
      timeZone: 'Europe/Athens',
      map: { tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors', attributionUrl: 'https://www.openstreetmap.org/copyright' },
      // The upload limits the server enforces, so the browser refuses a file past them before sending it.
      upload: {
        fileMaxBytes: app.config.uploadMaxBytes,
        requestMaxBytes: app.config.upload.requestMaxBytes,
        maxFiles: app.config.upload.maxFiles,
        photoTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'],
      },
    });
    expect(String(res.headers['content-security-policy'])).toMatch(/img-src 'self' data: blob: https:\/\/tile\.openstreetmap\.org/);
    // The rest of helmet's headers, on an API answer and on an error alike.
    for (const answer of [res, await app.inject({ url: '/api/no/such/call' })]) {
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'cross-origin-opener-policy': 'same-origin',
      });
      expect(String(answer.headers['content-security-policy'])).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    }
    // The sign-in page asks too (its logo depends on the host).
    expect((await app.inject({ url: '/api/config' })).statusCode).toBe(200);
  });

  it('refuses an unknown language with a translated problem', async () => {
    const res = await app.inject({ url: '/api/Localization?culture=de', headers: { 'accept-language': 'el' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400 });
  });

  it('counts unread alerts for office staff', async () => {
    const u = await t.user();
    await t.db.insert(alerts).values([
      { source: 'Website', content: 'a' },
      { source: 'Website', content: 'b', readedOn: new Date() },
    ]);
    const res = await u.get('/api/Alert/unreadCount');
    expect(res.json()).toBe(1);
    const branch = await t.user({ branchId: 1 });
    expect((await branch.get('/api/Alert/unreadCount')).json()).toBe(0);
  });

  it('global search answers an empty list for empty text', async () => {
    const u = await t.user();
    const res = await u.get('/api/search?searchStr=');
    expect(res.json()).toEqual({ items: [] });
  });

  it('home lists the user\'s recent actions, newest first, without their sign-ins or their own sign-in\'s settings', async () => {
    const u = await t.user({ roles: ['employee'] });
    await u.post('/api/UserSettings/Language', { language: 'ru' });
    const added = await u.post('/api/account/add', { lastName: 'Homelist', firstName: 'Anna', isClient: true });
    expect(added.statusCode, added.body).toBe(200);
    expect((await u.post('/api/Deal/download', {})).statusCode).toBe(200);
    const res = await u.get('/api/home');
    const body = res.json();
    // The sign-in that made the token, the language kept for it and a list downloaded are in the
    // action log, not among the changes the user made.
    const logged = await db.select({ action: actionLog.action, entity: actionLog.entity }).from(actionLog).where(eq(actionLog.actionBy, u.id));
    expect(logged.map((r) => `${r.action} ${r.entity}`).sort()).toEqual(['Create Account', 'Download Deal', 'Login User', 'Update User']);
    expect(body.recent.map((r: { action: string; entity: string }) => `${r.action} ${r.entity}`)).toEqual(['Create Account']);
    expect(body.recent[0].date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(body.recent[0].reference).toBeNull();
    // A property is named by its reference number, as the action log names it (its row id differs).
    const [o] = await db.insert(objects).values({ referenceNumber: 8642 } as never).returning({ id: objects.id });
    const edited = await u.post('/api/object/update', { id: o!.id, version: 1, bedrooms: 3 });
    expect(edited.statusCode, edited.body).toBe(200);
    const again = (await u.get('/api/home')).json();
    expect(again.recent[0]).toMatchObject({ entity: 'Object', entityId: o!.id, reference: '8642' });
  });

  it('home greets the user by the first name on their account, and by no name without one', async () => {
    const u = await t.user();
    expect((await u.get('/api/home')).json().name).toBeNull();
    const [a] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Markou', isEmploye: true }).returning({ id: accounts.id });
    await db.update(users).set({ accountId: a!.id }).where(eq(users.id, u.id));
    // The sign-in's name is its account's from then on (migration 0048).
    expect((await u.get('/api/home')).json()).toMatchObject({ name: 'Eleni', username: 'Markou Eleni' });
  });

  it('routes are case-insensitive and unknown API paths are problem-details 404s', async () => {
    const res = await app.inject({ url: '/API/HEALTH' });
    expect(res.statusCode).toBe(200);
    const nf = await app.inject({ url: '/api/nothing-here', headers: { 'accept-language': 'el' } });
    expect(nf.statusCode).toBe(404);
    expect(nf.json()).toMatchObject({ code: 'errors.noSuchCall', title: 'Δεν υπάρχει τέτοια κλήση στο API. Ελέγξτε τη διεύθυνση του αιτήματος.' });
  });

  it('publishes the OpenAPI description', async () => {
    const res = await app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/authenticate/login');
  });
});
