import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { sanitizeMailHtml } from './mail-html.ts';
import { blockedImages } from './mail-images.ts';

/**
 * A message's remote pictures, fetched by the CRM when the reader asks (GET /api/mail/{id}/image/{n}),
 * from a real HTTP server on this machine standing for the sender's.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const asked: string[] = [];
const sender = http.createServer((req, res) => {
  asked.push(req.url ?? '');
  const path = (req.url ?? '').split('?')[0];
  if (path === '/logo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  if (path === '/evil.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  if (path === '/moved.png') return res.writeHead(302, { location: '/logo.png' }).end();
  res.writeHead(404).end();
});
await new Promise<void>((r) => sender.listen(0, '127.0.0.1', r));
const port = (sender.address() as AddressInfo).port;
afterAll(() => new Promise<void>((r) => sender.close(() => r())));

const t = await createTestApp({ MAIL_IMAGES_ALLOW_PRIVATE: 'true' }, undefined, { jobs: false });
// Webhooks may reach private addresses here; a mail's pictures still may not.
const closed = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, undefined, { jobs: false });

/** A message stored as the sync stores it: its HTML sanitised, the remote pictures' addresses kept apart. */
async function storeMessage(t: Awaited<ReturnType<typeof createTestApp>>, html: string, ownerId: number | null = null) {
  const box = await t.db.execute(sql`insert into mailboxes (name, address, owner_id, imap_host, imap_port, imap_tls, imap_user, imap_password)
    values ('Office', 'info@agency.test', ${ownerId}, '127.0.0.1', 143, false, 'info', 'v1:sealed') returning id`);
  const clean = sanitizeMailHtml(html);
  const m = await t.db.execute(sql`insert into mail_messages (mailbox_id, message_id, subject, html, remote_images)
    values (${(box.rows[0] as { id: number }).id}, ${`<${Math.random()}@example.gr>`}, 'Pictures', ${clean.html}, ${clean.remoteImages}) returning id`);
  return Number((m.rows[0] as { id: number }).id);
}

describe('remote pictures of a mail', () => {
  it('are fetched by the server in the order the message shows them, only as pictures a browser shows safely', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const base = `http://127.0.0.1:${port}`;
    const id = await storeMessage(t, `<p>Hi</p><img src="${base}/logo.png?a=1&amp;b=2"><img src="${base}/evil.svg"><img src="${base}/moved.png"><img src="${base}/gone.png">`);
    const first = await admin.get(`/api/mail/${id}/image/0`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.from(first.rawPayload).equals(PNG)).toBe(true);
    expect(asked).toContain('/logo.png?a=1&b=2');
    // An SVG (it can carry a script), a redirect and a missing picture are not passed on.
    for (const n of [1, 2, 3]) {
      const res = await admin.get(`/api/mail/${id}/image/${n}`, { lang: 'en' });
      expect(res.statusCode).toBe(502);
      expect(res.body).toContain("could not be loaded from the sender's server");
    }
    // Beyond the message's pictures, or a message the reader may not see: not found.
    expect((await admin.get(`/api/mail/${id}/image/4`)).statusCode).toBe(404);
    const agent = await t.user({ roles: ['employee'] });
    const privateBox = await storeMessage(t, `<img src="${base}/logo.png">`, admin.id);
    expect((await agent.get(`/api/mail/${privateBox}/image/0`)).statusCode).toBe(404);
  });

  it('never reach a private network unless the setting allows it', async () => {
    const admin = await closed.user({ roles: ['admin'] });
    const before = asked.length;
    const id = await storeMessage(closed, `<img src="http://127.0.0.1:${port}/logo.png"><img src="http://localhost:${port}/logo.png"><img src="http://[::ffff:127.0.0.1]:${port}/logo.png">`);
    for (const n of [0, 1, 2]) expect((await admin.get(`/api/mail/${id}/image/${n}`)).statusCode).toBe(502);
    expect(asked.length).toBe(before);
  });

  it('are read back from the stored HTML with its entities undone', () => {
    const { html } = sanitizeMailHtml('<img src="https://a.example/x.png?u=1&amp;v=&quot;2&quot;"><img src="data:image/png;base64,AAAA"><img src="//b.example/y.gif">');
    expect(blockedImages(html)).toEqual(['https://a.example/x.png?u=1&v="2"', '//b.example/y.gif']);
  });
});
