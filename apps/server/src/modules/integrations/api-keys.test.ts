import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { createTestApp, json } from '../../../test/harness.ts';
import { agencyToday } from '../../lib/dates.ts';

/** API keys (decision 080): made by office admins, shown once, stored hashed, acting within their scopes only. */
const t = await createTestApp({ API_KEY_CALLS_PER_MINUTE: '25', LOG_LEVEL: 'error' });
const admin = await t.user({ roles: ['admin'] });
const today = agencyToday(t.config.timeZone);
const inDays = (n: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const NONE = { accounts: 'none', properties: 'none', leads: 'none', deals: 'none', payments: 'none' };

async function makeKey(name: string, scopes: Partial<typeof NONE>, expiresOn = inDays(30)) {
  const made = await json(admin.post('/api/ApiKeys', { name, scopes: { ...NONE, ...scopes }, expiresOn }));
  return made as { key: { id: number; name: string; hint: string }; secret: string };
}

describe('API keys', () => {
  it('are shown once and stored only as their SHA-256', async () => {
    const made = await makeKey('Accountant', { accounts: 'read' });
    expect(made.secret).toMatch(/^crm_[0-9a-f]{64}$/);
    expect(made.key.hint).toBe(`${made.secret.slice(0, 10)}…`);
    const list = await admin.get('/api/ApiKeys');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(made.secret);
    const row = list.json().items.find((k: { id: number }) => k.id === made.key.id);
    expect(row).toMatchObject({ name: 'Accountant', scopes: { ...NONE, accounts: 'read' }, lastUsedOn: null, expiresOn: inDays(30), revokedOn: null });
    expect(row.createdBy).toBe(admin.email);
    const stored = (await t.pool.query('select * from api_keys where id = $1', [made.key.id])).rows[0];
    expect(stored.key_hash).toEqual(createHash('sha256').update(made.secret).digest());
    expect(JSON.stringify(stored)).not.toContain(made.secret.slice(4));
  });

  it('act within their scopes only: another area, a write with a read scope, or a call of no area is a 403 in the reader’s language', async () => {
    const { secret } = await makeKey('Website', { accounts: 'read', properties: 'write' });
    const key = t.client(secret);
    expect((await key.get('/api/account?perPage=5&currentPage=1')).statusCode).toBe(200);
    expect((await key.post('/api/object/search', {})).statusCode).toBe(200);
    const write = await key.post('/api/account/add', { firstName: 'Α', lastName: 'Β' }, { lang: 'el' });
    expect(write.statusCode).toBe(403);
    expect(write.json().title).toBe('Αυτό το κλειδί API δεν επιτρέπεται να κάνει αλλαγές στην ενότητα «Επαφές».');
    const lead = await key.post('/api/lead/search', {}, { lang: 'en' });
    expect(lead.statusCode).toBe(403);
    expect(lead.json().title).toBe('This API key has no access to read Leads.');
    const payments = await key.get('/api/transactions/accounts');
    expect(payments.statusCode).toBe(403);
    // Calls of no area: settings, the action log, the keys themselves.
    for (const [method, url] of [['POST', '/api/actionLog'], ['GET', '/api/ApiKeys'], ['GET', '/api/SiteSettings'], ['GET', '/api/authenticate/me']] as const) {
      const res = await key.call(method, url, method === 'POST' ? {} : undefined, { lang: 'en' });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().title).toBe('API keys cannot use this call; it is for signed-in staff only.');
    }
    // The single-field editor: the area of the entity it names.
    expect((await key.get('/api/lead/editRequestSelectList?id=1&fieldName=budget')).statusCode).toBe(403);
  });

  it('reach the payments only with the payments scope', async () => {
    const { secret } = await makeKey('Accounting export', { payments: 'read' });
    expect((await t.client(secret).get('/api/transactions/accounts')).statusCode).toBe(200);
    expect((await t.client(secret).post('/api/transactions/addIncome', {})).statusCode).toBe(403);
  });

  it('count for nothing on the payments host unless administrators may sign in there, and there reach the payments only', async () => {
    const HOST = 'pay.agency.test';
    for (const admins of ['false', 'true']) {
      const pay = await createTestApp({ PAYMENTS_HOST: HOST, PAYMENTS_ADMINS: admins });
      const boss = await pay.user({ roles: ['admin'] });
      const made = await json(boss.post('/api/ApiKeys', { name: 'Pay', scopes: { ...NONE, payments: 'read', accounts: 'read' }, expiresOn: inDays(3) }));
      const onPay = { headers: { host: HOST } };
      const key = pay.client(made.secret);
      expect((await key.get('/api/transactions/accounts', onPay)).statusCode).toBe(admins === 'true' ? 200 : 401);
      // The clients' own statement calls are the clients' alone; the CRM's calls do not exist there.
      expect((await key.post('/api/transactions/statement/approveExpense/1', {}, onPay)).statusCode).toBe(admins === 'true' ? 403 : 401);
      expect((await key.get('/api/owner', onPay)).statusCode).toBe(404);
      await pay.app.close();
    }
  });

  it('write the action log under the key’s name', async () => {
    const { secret } = await makeKey('n8n flow', { accounts: 'write' });
    const made = await json(t.client(secret).post('/api/account/add', { firstName: 'Νίκος', lastName: 'Κλειδάς' }));
    const logged = (await t.pool.query(`select action_by, action_by_name from action_log where entity = 'Account' and entity_id = $1`, [made.id])).rows;
    expect(logged).toEqual([{ action_by: null, action_by_name: 'apikey:n8n flow' }]);
    const shown = await json(admin.post('/api/actionLog', { entity: 1, entityId: made.id }, { lang: 'el' }));
    expect(shown.items[0].actionBy).toBe('Κλειδί API «n8n flow»');
    const keys = (await json(admin.get('/api/ApiKeys'))).items as { name: string; lastUsedOn: string | null }[];
    expect(keys.find((k) => k.name === 'n8n flow')!.lastUsedOn).not.toBeNull();
  });

  it('refuse an expired or revoked key with a 401, at once', async () => {
    const a = await makeKey('Old tool', { accounts: 'read' });
    const b = await makeKey('Revoked tool', { accounts: 'read' });
    expect((await t.client(a.secret).get('/api/owner')).statusCode).toBe(200);
    await t.db.execute(sql`update api_keys set expires_on = now() - interval '1 second' where id = ${a.key.id}`);
    const expired = await t.client(a.secret).get('/api/owner', { lang: 'en' });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().title).toBe('The API key is unknown, expired or revoked.');
    expect((await t.client(b.secret).get('/api/owner')).statusCode).toBe(200);
    const revoked = await json(admin.post(`/api/ApiKeys/${b.key.id}/revoke`));
    expect(revoked.revokedOn).not.toBeNull();
    expect((await t.client(b.secret).get('/api/owner')).statusCode).toBe(401);
    // A made-up key of the right shape, and one a letter off.
    expect((await t.client(`crm_${'0'.repeat(64)}`).get('/api/owner')).statusCode).toBe(401);
    expect((await t.client(b.secret.slice(0, -1) + (b.secret.endsWith('a') ? 'b' : 'a')).get('/api/owner')).statusCode).toBe(401);
  });

  it('stop working once their maker is no longer an office admin (made an employee, or given a branch)', async () => {
    const maker = await t.user({ roles: ['admin'] });
    const made = (await json(maker.post('/api/ApiKeys', { name: 'Maker’s tool', scopes: { ...NONE, accounts: 'read' }, expiresOn: inDays(30) }))) as { secret: string };
    expect((await t.client(made.secret).get('/api/owner')).statusCode).toBe(200);
    await t.db.execute(sql`update users set roles = '{employee}' where id = ${maker.id}`);
    expect((await t.client(made.secret).get('/api/owner')).statusCode).toBe(401);
    await t.db.execute(sql`update users set roles = '{admin}' where id = ${maker.id}`);
    expect((await t.client(made.secret).get('/api/owner')).statusCode).toBe(200);
  });

  it('are described in the OpenAPI document: the bearer key, its scopes, the webhooks’ signature', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const bearer = doc.components.securitySchemes.bearer;
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(bearer.description).toContain('`crm_` followed by 64 hex digits');
    expect(bearer.description).toContain('accounts, properties, leads, deals, payments');
    expect(doc.info.description).toContain('X-CRM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/ApiKeys', '/api/Webhooks/{id}/deliveries']));
    // Every event's body, with the record as the API shows it.
    // Seven records' three changes, a lead from a portal and a mandate ending.
    expect(Object.keys(doc['x-webhooks'])).toHaveLength(23);
    expect(doc['x-webhooks']['lead.fromPortal'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookLead' });
    expect(doc.components.schemas.WebhookProperty.properties.event.enum).toEqual(['property.created', 'property.updated', 'property.deleted', 'property.mandateEnding']);
    expect(doc['x-webhooks']['account.created'].post.parameters.map((p: { name: string }) => p.name)).toEqual(['X-CRM-Signature', 'X-CRM-Attempt']);
    expect(doc.info.description).toContain('`X-CRM-Attempt` (1 on the first try');
    // A lead from a portal's data, every field sent (decision 097; webhooks.test.ts checks them against a delivery).
    expect(doc.info.description).toContain('`lead.fromPortal` tells of a lead made or added to from a portal\'s enquiry mail (`data`: source, portal, portalRef, objectId, newLead, accountId, newAccount, mailMessageId:');
    expect(doc['x-webhooks']['lead.created'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookLead' });
    expect(doc.components.schemas.WebhookAccount.properties.current.properties).toHaveProperty('displayName');
    expect(doc.components.schemas.WebhookPayment.properties.event.enum).toEqual(['payment.created', 'payment.updated', 'payment.deleted']);
  });

  it('refuse a key without any scope, or an expiry in the past or past two years', async () => {
    const none = await admin.post('/api/ApiKeys', { name: 'Nothing', scopes: NONE, expiresOn: inDays(5) }, { lang: 'en' });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors.scopes).toEqual(['Give the key access to at least one area.']);
    for (const day of [inDays(-1), inDays(800)]) {
      const res = await admin.post('/api/ApiKeys', { name: 'Late', scopes: { ...NONE, leads: 'read' }, expiresOn: day });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['expiresOn']);
    }
  });

  it('are rate limited per key, on the counters every instance shares', async () => {
    const { secret } = await makeKey('Busy robot', { accounts: 'read' });
    const other = await makeKey('Calm robot', { accounts: 'read' });
    const key = t.client(secret);
    for (let i = 0; i < 25; i++) expect((await key.get('/api/owner')).statusCode).toBe(200);
    const limited = await key.get('/api/owner', { lang: 'en' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().title).toMatch(/^Too many calls with this API key\. Try again in \d+ s\.$/);
    // Another key is counted apart, on the database's counters (the ones every instance shares).
    expect((await t.client(other.secret).get('/api/owner')).statusCode).toBe(200);
    const row = (await t.pool.query(`select failures from login_failures where key = $1`, [`apikey:${other.key.id}`])).rows[0];
    expect(row.failures).toBe(1);
  });

  it('tell an address that sends made-up keys to wait (a 429 after 30 a minute), not look each one up for ever', async () => {
    const made = (i: number) => `crm_${i.toString(16).padStart(64, '0')}`;
    let first429 = 0;
    for (let i = 0; i < 40 && !first429; i++) if ((await t.client(made(i)).get('/api/owner')).statusCode === 429) first429 = i + 1;
    // Earlier tests of this file sent a few refused keys from the same address within the minute.
    expect(first429).toBeGreaterThan(20);
    expect(first429).toBeLessThanOrEqual(31);
  });
});
