import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { isServerWrittenScreen } from '@crm/contract/constants';
import { accounts, files, leadObjects, leads, objects, shortlists } from '../../db/schema/index.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { createTestApp } from '../../../test/harness.ts';

/** The client's page as the server sends it: a link preview for a working link, the right status otherwise. */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-web-'));
const script = "\n      window.__started = 'yes';\n    ";
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  `<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>Agency CRM</title>\n    <script>${script}</script>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n`,
);
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

const t = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test', WEB_DIST: webDist });
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

let seq = 0;
async function newObject(title: string, values: Record<string, unknown> = {}) {
  seq++;
  const [o] = await db
    .insert(objects)
    .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, title, titleEl: title, subTypeObjectTypeId: 1, objectSubTypeId: 1, forRent: true, rentPrice: 700, active: true, ...values } as never)
    .returning({ id: objects.id });
  return o!.id;
}
async function sentLink(objectIds: number[], language = 'el') {
  const [a] = await db.insert(accounts).values({ firstName: 'Maria', lastName: `Client${++seq}`, language }).returning();
  const [l] = await db.insert(leads).values({ accountId: a!.id, forRent: true } as never).returning({ id: leads.id });
  await db.insert(leadObjects).values(objectIds.map((objectId, position) => ({ leadId: l!.id, objectId, position })));
  const res = await agent.post(`/api/lead/${l!.id}/shortlist`, { objectIds, channel: 'link' });
  expect(res.statusCode, res.body).toBe(200);
  const token = /\/Shortlist\/([A-Za-z0-9_-]{43})$/.exec(res.json().url)![1]!;
  return { token, leadId: l!.id };
}
// A chat's fetcher, with a host of its own: the addresses still come from PUBLIC_URL.
const page = (token: string) => app.inject({ url: `/Shortlist/${token}`, headers: { 'user-agent': 'WhatsApp/2.23', 'accept-language': 'en', host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
const metaOf = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1];

describe('the client page as served', () => {
  it('a working link gets the preview in the shortlist\'s language, every value escaped, and is not noted as opened', async () => {
    await db.execute(sql`update site_settings set name = ${'Ακίνητα "Θερμαϊκός" <b>&'} where id = 1`);
    const noPhoto = await newObject('Studio </title><script>alert(1)</script>');
    const withPhoto = await newObject('Maisonette in Kalamaria', { forRent: false, rentPrice: null, forSale: true, salePrice: 185000 });
    await getFileStorage(t.dataDir).put('pg-web.webp', Readable.from(Buffer.from('web copy')));
    await db.insert(files).values({ systemName: 'pg.jpg', userName: 'pg.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: withPhoto, type: 'image', webName: 'pg-web.webp' });
    const { token, leadId } = await sentLink([noPhoto, withPhoto]);

    const res = await page(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    const html = res.body;
    expect(html).toContain('<html lang="el">');
    const title = '2 ακίνητα επιλεγμένα για εσάς από Ακίνητα &quot;Θερμαϊκός&quot; &lt;b&gt;&amp;';
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).not.toContain('Agency CRM');
    expect(metaOf(html, 'og:title')).toBe(title);
    expect(metaOf(html, 'twitter:title')).toBe(title);
    expect(metaOf(html, 'og:site_name')).toBe('Ακίνητα &quot;Θερμαϊκός&quot; &lt;b&gt;&amp;');
    expect(metaOf(html, 'robots')).toBe('noindex, nofollow');
    // The titles and prices, short, in Greek; the property's markup is text.
    const description = metaOf(html, 'og:description')!;
    expect(description).toMatch(/^Studio &lt;\/title&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; — 700\s€ τον μήνα · Maisonette in Kalamaria — 185\s000\s€$/);
    expect(metaOf(html, 'description')).toBe(description);
    expect(html).not.toContain('<script>alert');
    // The first photo there is, by an absolute address from PUBLIC_URL, served through the token.
    const image = `https://crm.agency.test/api/shortlist/${token}/photo/${withPhoto}`;
    expect(metaOf(html, 'og:image')).toBe(image);
    expect(metaOf(html, 'twitter:image')).toBe(image);
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    expect(html).not.toContain('evil.example');
    expect((await app.inject({ url: image.replace('https://crm.agency.test', '') })).body).toBe('web copy');
    // The start-up script is as built, and the CSP still allows it by its hash.
    expect(html).toContain(`<script>${script}</script>`);
    const hash = crypto.createHash('sha256').update(script, 'utf8').digest('base64');
    expect(res.headers['content-security-policy']).toContain(`'sha256-${hash}'`);
    // A chat's server fetching the preview is not the client opening the page.
    const [row] = await db.select().from(shortlists).where(eq(shortlists.leadId, leadId));
    expect(row!.openedOn).toBeNull();
  });

  it('an unknown link is a 404, an expired or withdrawn one a 410, with the app\'s own title and nothing of the shortlist', async () => {
    const o = await newObject('Penthouse SECRET-TITLE');
    const expired = await sentLink([o]);
    const withdrawn = await sentLink([o]);
    await db.update(shortlists).set({ expiresOn: new Date(Date.now() - 1000) }).where(eq(shortlists.leadId, expired.leadId));
    const [w] = await db.select().from(shortlists).where(eq(shortlists.leadId, withdrawn.leadId));
    expect((await agent.post(`/api/lead/${withdrawn.leadId}/shortlist/${w!.id}/withdraw`)).statusCode).toBe(200);
    for (const [token, status] of [
      ['A'.repeat(43), 404],
      ['not-a-token', 404],
      [expired.token, 410],
      [withdrawn.token, 410],
    ] as const) {
      const res = await page(token);
      expect(res.statusCode, token).toBe(status);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>Agency CRM</title>');
      expect(res.body).toContain('<div id="root"></div>');
      expect(metaOf(res.body, 'robots')).toBe('noindex, nofollow');
      expect(metaOf(res.body, 'og:title')).toBeUndefined();
      expect(res.body).not.toContain('SECRET-TITLE');
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('serves the signing page (decision 086) never cached nor indexed, 404 for an unknown link, in the document’s language', async () => {
    const m = await agent.post('/api/Mandate/update', { objectId: await newObject('Signed flat'), kind: 'simple', startDate: '2026-01-10', endDate: '2026-09-10', owners: [] });
    expect(m.statusCode, m.body).toBe(200);
    const sent = await agent.post('/api/SignRequest/send', { source: 'mandate', id: m.json().id, culture: 'ru', name: 'Иван Петров', email: 'ivan@example.ru' });
    expect(sent.statusCode, sent.body).toBe(200);
    for (const [url, status] of [[new URL(sent.json().url).pathname, 200], [`/Sign/${'B'.repeat(43)}`, 404], ['/Sign/short', 404]] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(metaOf(res.body, 'robots')).toBe('noindex, nofollow');
      if (status === 200) expect(res.body).toContain('<html lang="ru">');
    }
    // Made-up links are counted with the link's calls: past the limit the page answers 429, the real link too (no lookup).
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await app.inject({ url: `/Sign/${String(i).padStart(2, '0')}${'C'.repeat(41)}` })).statusCode);
    expect(statuses.slice(0, 19)).toEqual(Array(19).fill(404));
    expect(statuses.at(-1)).toBe(429);
    expect((await app.inject({ url: new URL(sent.json().url).pathname })).statusCode).toBe(429);
  });

  it("lies under the screens the server writes per address, which the web app's service worker leaves to the server", () => {
    // The GET routes outside /api that are neither the public site's nor the web app's catch-all.
    const written = app.routeAccess.filter((r) => r.method === 'GET' && !r.url.startsWith('/api') && r.url !== '/*' && !/^\/(listings|feed\/|calendar\/)/.test(r.url)).map((r) => r.url);
    expect(written).toEqual(['/Shortlist/:token', '/OwnerReport/:token', '/Sign/:token']);
    expect(written.filter((u) => !isServerWrittenScreen(u.replace(':token', 'x')))).toEqual([]);
    expect(isServerWrittenScreen('/Leads/View/1')).toBe(false);
    expect(isServerWrittenScreen('/Sign/x')).toBe(true);
    expect(isServerWrittenScreen('/OwnerReport/x')).toBe(true);
    expect(isServerWrittenScreen('/Payments/ApproveExpense/1')).toBe(false);
  });
});
