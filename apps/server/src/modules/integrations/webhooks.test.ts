import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, json, poller } from '../../../test/harness.ts';
import { classifyAddress, guardedLookup, urlProblem } from './webhook-address.ts';
import { OPENAPI_INTRO } from './openapi-texts.ts';
import { signWebhook } from './webhook-send.ts';
import { sealOldWebhookSecrets } from './webhook-secret.ts';
import { agencyToday } from '../alerts/alerts.system.ts';
import { makeEnquiryLead } from '../mail/enquiry-lead.ts';
import { checkMandateAlerts } from '../mandates/mandates.alerts.ts';

/**
 * Webhooks (decision 080), delivered to a real HTTP server started here on a free port. It checks
 * every signature as a subscriber would (HMAC-SHA256 of "<t>.<body>", a timestamp at most five
 * minutes old) and answers as each test tells it.
 */
type Received = { path: string; event: string; delivery: number; attempt: number; body: { id: number; event: string; record: { entity: string; id: number }; by: string; data: Record<string, unknown>; current: Record<string, unknown> | null }; signed: boolean };
const received: Received[] = [];
const answers = new Map<string, number[]>();
const secrets = new Map<string, string>();
const hanging: http.ServerResponse[] = [];

function verify(secret: string, header: string, body: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false; // a replayed (old) delivery
  const want = createHmac('sha256', secret).update(`${m[1]}.${body}`).digest();
  return timingSafeEqual(want, Buffer.from(m[2]!, 'hex'));
}

const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    const path = req.url ?? '';
    const signed = verify(secrets.get(path) ?? '', String(req.headers['x-crm-signature'] ?? ''), body);
    received.push({ path, event: String(req.headers['x-crm-event']), delivery: Number(req.headers['x-crm-delivery']), attempt: Number(req.headers['x-crm-attempt']), body: JSON.parse(body), signed });
    const status = answers.get(path)?.shift() ?? 200;
    // -1: the receiver takes the request and never answers (hangs); the sender gives up on it.
    if (status === -1) return void hanging.push(res);
    res.writeHead(signed ? status : 401).end(status === 200 ? 'ok' : 'receiver is down');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as AddressInfo).port;
afterAll(() => {
  for (const r of hanging) r.destroy();
  return new Promise<void>((r) => receiver.close(() => r()));
});

// A receiver that hangs is given up on after 5 s here (10 s by default).
const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SECONDS: '1', WEBHOOK_TIMEOUT_SECONDS: '5' });
const admin = await t.user({ roles: ['admin'] });

/** Waits for a condition the background work makes true (polled; fails after 20 s). */
const until = poller({ seconds: 20, everyMs: 50 });

async function endpoint(path: string, events: string[]) {
  const made = await json(admin.post('/api/Webhooks', { url: `http://localhost:${port}${path}`, events }));
  secrets.set(path, made.secret);
  return made as { webhook: { id: number; version: number }; secret: string };
}
const at = (path: string) => received.filter((r) => r.path === path);
const addAccount = async (lastName: string) => (await json(admin.post('/api/account/add', { firstName: 'Μαρία', lastName }))).id as number;

describe('webhooks', () => {
  it('deliver a signed event the receiver verifies, with the record and who changed it; the secret is shown once', async () => {
    const { webhook, secret } = await endpoint('/signed', ['account.created']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await admin.get('/api/Webhooks');
    expect(list.body).not.toContain(secret);
    // Kept sealed: the database holds no signing secret in the clear.
    const stored = (await t.db.execute(sql`select secret from webhook_endpoints where id = ${webhook.id}`)).rows[0] as { secret: string };
    expect(stored.secret).toMatch(/^v1:/);
    expect(stored.secret).not.toContain(secret.slice(6));
    expect((await json(list)).items.find((w: { id: number }) => w.id === webhook.id).hint).toBe(`${secret.slice(0, 10)}…`);
    const id = await addAccount('Υπογραφή');
    const got = await until('the delivery', () => at('/signed')[0]);
    expect(got.signed).toBe(true);
    expect(got.event).toBe('account.created');
    expect(got.body).toMatchObject({ event: 'account.created', record: { entity: 'Account', id }, by: admin.email });
    expect(got.body.id).toBe(got.delivery);
    // The record itself, as the API's own call answers it.
    expect(got.body.current).toMatchObject({ id, lastName: 'Υπογραφή', version: 1 });
    expect(got.body.current).toEqual(await json(admin.get(`/api/account/view/${id}`)));
    const log = await until('the delivered state', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items;
      return items[0]?.state === 'delivered' && items;
    });
    expect(log[0]).toMatchObject({ event: 'account.created', entity: 'Account', entityId: id, attempts: 1, lastStatus: 200, lastError: null });
    // A receiver that checks signatures refuses a body changed on the way, and a replay: a rightly
    // signed delivery whose timestamp is an hour old.
    const now = Math.floor(Date.now() / 1000);
    expect(verify(secret, `t=${now},v1=${'0'.repeat(64)}`, JSON.stringify(got.body))).toBe(false);
    const old = now - 3600;
    expect(verify(secret, signWebhook(secret, old, JSON.stringify(got.body)), JSON.stringify(got.body))).toBe(false);
    expect(verify(secret, signWebhook(secret, now, JSON.stringify(got.body)), JSON.stringify(got.body))).toBe(true);
    // Replayed to the receiver over HTTP, the old delivery is refused there too.
    const replay = async (header: string) =>
      (await fetch(`http://127.0.0.1:${port}/signed`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-crm-signature': header, 'x-crm-delivery': String(got.delivery) }, body: JSON.stringify(got.body) })).status;
    expect(await replay(signWebhook(secret, old, JSON.stringify(got.body)))).toBe(401);
    expect(await replay(signWebhook(secret, now, JSON.stringify(got.body)))).toBe(200);
  });

  it('send a deleted record as null beside the change logged, and a property as its own call answers it', async () => {
    await endpoint('/gone', ['account.deleted']);
    const id = await addAccount('Διαγραφή');
    expect((await admin.del(`/api/account/${id}`)).statusCode).toBe(200);
    const gone = await until('the deletion', () => at('/gone')[0]);
    expect(gone.body).toMatchObject({ event: 'account.deleted', record: { entity: 'Account', id }, current: null });
    await endpoint('/property', ['property.created']);
    const made = (await admin.get('/api/object/add')).json() as { id: number; referenceNumber: string };
    const got = await until('the property', () => at('/property').find((r) => r.body.record.id === made.id));
    expect(got.body.current).toMatchObject({ id: made.id, referenceNumber: made.referenceNumber });
  });

  it('send a payment as its own form answers it (income and expense), and the payment as changed on its update', async () => {
    await endpoint('/payment', ['payment.created', 'payment.updated']);
    const accountId = await addAccount('Πληρωμή');
    const form = (fields: Record<string, string | number>) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.append(k, String(v));
      return fd;
    };
    const added = await admin.post('/api/transactions/addIncome', form({ accountId, amount: '420.50', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1, description: 'Ενοίκιο Μαρτίου' }));
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().id as number;
    /** The payment as the API's form shows it, without what only a form needs (its choice lists, whether the caller may edit). */
    const asForm = async (kind: 'Income' | 'Expense', paymentId: number) => {
      const { lists: _lists, canEdit: _canEdit, ...rest } = (await admin.get(`/api/transactions/edit${kind}/${paymentId}`)).json();
      return { type: kind.toLowerCase(), ...rest };
    };
    const created = await until('the payment', () => at('/payment').find((r) => r.event === 'payment.created' && r.body.record.id === id));
    expect(created.signed).toBe(true);
    expect(created.body.current).toMatchObject({ type: 'income', updateFields: { id, amount: '420.50', version: 1 } });
    expect(created.body.current).toEqual(await asForm('Income', id));

    const edited = await admin.post('/api/transactions/editIncome', form({ id, version: 1, accountId, amount: '650', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1 }));
    expect(edited.statusCode, edited.body).toBe(200);
    const updated = await until('the payment changed', () => at('/payment').find((r) => r.event === 'payment.updated' && r.body.record.id === id));
    expect(updated.body.current).toMatchObject({ type: 'income', updateFields: { id, amount: '650.00', version: 2 } });
    expect(updated.body.current).toEqual(await asForm('Income', id));

    const expense = await admin.post('/api/transactions/addExpense', form({ accountId, amount: '10.00', transactionDate: '2026-03-02T10:00:00', paymentMethod: 1, categoryId: 22, status: 1 }));
    expect(expense.statusCode, expense.body).toBe(200);
    const expenseId = expense.json().id as number;
    const spent = await until('the expense', () => at('/payment').find((r) => r.event === 'payment.created' && r.body.record.id === expenseId));
    expect(spent.body.current).toMatchObject({ type: 'expense', updateFields: { id: expenseId, amount: '10.00' } });
    expect(spent.body.current).toEqual(await asForm('Expense', expenseId));
  });

  it('retry after a 500, then deliver; the log shows the attempts and the last error until then', async () => {
    const { webhook } = await endpoint('/flaky', ['account.created']);
    answers.set('/flaky', [500]);
    await addAccount('Ξαναδοκιμή');
    const failed = await until('the failed attempt', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items;
      // A try is counted when it starts (decision 097): its answer is there once the status is.
      return (items[0]?.lastStatus !== null || items[0]?.state === 'delivered') && items[0];
    });
    expect(failed.lastStatus === 500 || failed.state === 'delivered').toBe(true);
    const done = await until('the delivery', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items;
      return items[0]?.state === 'delivered' && items[0];
    });
    expect(done).toMatchObject({ attempts: 2, lastStatus: 200, lastError: null });
    expect(at('/flaky').map((r) => r.delivery)).toEqual([done.id, done.id]);
  });

  it('give up on a receiver that hangs and send again, each try numbered in X-CRM-Attempt', async () => {
    const { webhook } = await endpoint('/hang', ['account.created']);
    answers.set('/hang', [500, -1]);
    const id = await addAccount('Αναμονή');
    // The second try is at the receiver, unanswered: the log shows it as sent without an answer,
    // not the first try's 500.
    await until('the second try', () => at('/hang').length >= 2);
    const inFlight = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items[0];
    expect(inFlight).toMatchObject({ entityId: id, state: 'pending', attempts: 2, lastStatus: null, lastError: null });
    const done = await until('the delivery', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items;
      return items[0]?.state === 'delivered' && items[0];
    });
    expect(done).toMatchObject({ entityId: id, attempts: 3, lastStatus: 200, lastError: null });
    expect(at('/hang').map((r) => [r.delivery, r.attempt, r.signed])).toEqual([
      [done.id, 1, true],
      [done.id, 2, true],
      [done.id, 3, true],
    ]);
  });

  it('count no try that never left (an address refused, a secret unopened): the first POST the receiver gets is attempt 1', async () => {
    const { webhook } = await endpoint('/refused', ['account.created']);
    const good = `http://localhost:${port}/refused`;
    // An address the sender refuses on every try (as one saved before a stricter rule would be).
    await t.db.execute(sql`update webhook_endpoints set url = ${`ftp://localhost:${port}/refused`} where id = ${webhook.id}`);
    const id = await addAccount('Άρνηση');
    const refused = await until('the refused try', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items;
      return items[0]?.lastError && items[0];
    });
    expect(refused).toMatchObject({ entityId: id, state: 'pending', attempts: 0, lastStatus: null, lastError: 'webhooks.errors.httpsOnly' });
    // The address fixed, the secret cannot be opened (sealed with a key since changed): not sent, not counted either.
    const sealed = ((await t.db.execute(sql`select secret from webhook_endpoints where id = ${webhook.id}`)).rows[0] as { secret: string }).secret;
    await t.db.execute(sql`update webhook_endpoints set url = ${good}, secret = ${`v1:${'A'.repeat(60)}`} where id = ${webhook.id}`);
    const unopened = await until('the try with the secret unopened', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items;
      return items[0]?.lastError && items[0].lastError !== 'webhooks.errors.httpsOnly' && items[0];
    });
    expect(unopened).toMatchObject({ state: 'pending', attempts: 0, lastStatus: null });
    expect(at('/refused')).toEqual([]);
    await t.db.execute(sql`update webhook_endpoints set secret = ${sealed} where id = ${webhook.id}`);
    const done = await until('the delivery', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items;
      return items[0]?.state === 'delivered' && items[0];
    });
    expect(done).toMatchObject({ entityId: id, attempts: 1, lastStatus: 200, lastError: null });
    expect(at('/refused').map((r) => [r.delivery, r.attempt, r.signed])).toEqual([[done.id, 1, true]]);
  });

  // A sender killed -9 mid-send, its delivery sent again by another process: webhooks.crash.test.ts.

  it('tell of a property whose mandate is ending, once a step, with the property as its call answers it', async () => {
    await endpoint('/mandate', ['property.mandateEnding']);
    const o = (await admin.get('/api/object/add')).json() as { id: number };
    const owner = await addAccount('Ιδιοκτήτρια');
    const today = agencyToday(t.config.timeZone);
    const plus = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);
    const saved = await admin.post('/api/Mandate/update', {
      objectId: o.id,
      kind: 'exclusive',
      startDate: plus(-100),
      endDate: plus(40),
      askingPrice: 185000,
      commissionPercent: 2,
      exceptions: [],
      owners: [{ accountId: owner, taxOffice: 'Δ΄ Θεσσαλονίκης' }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const m = saved.json() as { id: number };
    await checkMandateAlerts(t.app, { today: plus(10) });
    await checkMandateAlerts(t.app, { today: plus(11) });
    const got = await until('the mandate ending', () => at('/mandate')[0]);
    expect(got.signed).toBe(true);
    expect(got.body).toMatchObject({ event: 'property.mandateEnding', record: { entity: 'Object', id: o.id }, data: { mandateId: m.id, kind: 'exclusive', endsOn: plus(40), daysLeft: 30, step: 30 } });
    // The property as its call answers it (the call adds its lists of people, deals and viewings).
    expect(await json(admin.get(`/api/object/view/${o.id}`))).toMatchObject(got.body.current!);
    await checkMandateAlerts(t.app, { today: plus(30) });
    const ten = await until('the 10-day step', () => at('/mandate')[1]);
    expect(ten.body.data).toMatchObject({ daysLeft: 10, step: 10 });
    expect(at('/mandate')).toHaveLength(2);
    // The same day checked again (another instance, a restart): no third delivery is queued.
    const queued = async () => Number(((await t.db.execute(sql`select count(*)::int as n from webhook_deliveries where event = 'property.mandateEnding' and entity_id = ${o.id}`)).rows[0] as { n: number }).n);
    expect(await queued()).toBe(2);
    await checkMandateAlerts(t.app, { today: plus(30) });
    expect(await queued()).toBe(2);
  });

  it('tell of a lead made from a portal’s enquiry mail, with the lead and the property named', async () => {
    await endpoint('/portal', ['lead.fromPortal']);
    const o = (await admin.get('/api/object/add')).json() as { id: number; referenceNumber: string };
    // Saved once (no longer a draft), as a property on a portal is.
    await t.db.execute(sql`update objects set draft = false where id = ${o.id}`);
    const box = await t.db.execute(sql`insert into mailboxes (name, address, imap_host, imap_port, imap_tls, imap_user, imap_password)
      values ('Office', 'info@agency.test', '127.0.0.1', 143, false, 'info', 'v1:sealed') returning id`);
    const msg = await t.db.execute(sql`insert into mail_messages (mailbox_id, message_id, subject)
      values (${(box.rows[0] as { id: number }).id}, '<enquiry-1@spitogatos.gr>', 'Νέο μήνυμα για την αγγελία σας') returning id`);
    const msgId = Number((msg.rows[0] as { id: number }).id);
    const lead = await t.db.transaction((tx) =>
      makeEnquiryLead(t.app, tx, { id: msgId, messageId: '<enquiry-1@spitogatos.gr>', sentOn: new Date() }, {
        source: 'spitogatos',
        portalRef: '1117534392',
        propertyRef: Number(o.referenceNumber),
        name: 'Ελένη Μαυρίδου',
        phone: '6944123456',
        email: 'eleni.portal@example.gr',
        message: 'Είναι ακόμη διαθέσιμο;',
      }),
    );
    const got = await until('the portal lead', () => at('/portal')[0]);
    expect(got.signed).toBe(true);
    expect(got.body).toMatchObject({
      event: 'lead.fromPortal',
      record: { entity: 'Lead', id: lead!.leadId },
      by: 'mail',
      data: { source: 'spitogatos', portalRef: '1117534392', objectId: o.id, newLead: true, accountId: lead!.accountId },
    });
    // Every field sent is named in the OpenAPI document's introduction, and every one named is sent.
    const named = /`lead\.fromPortal`[^(]*\(`data`: ([^:]*):/.exec(OPENAPI_INTRO)![1]!.split(', ');
    expect(Object.keys(got.body.data).sort()).toEqual([...named].sort());
    // The lead as its call answers it (the call adds a form's choice lists), the property offered on it.
    expect(await json(admin.get(`/api/lead/view/${lead!.leadId}`))).toMatchObject(got.body.current!);
    expect(got.body.current).toMatchObject({ id: lead!.leadId, accountId: lead!.accountId });
  });

  it('send one record’s events in the order they happened, a failure holding back the ones after it', async () => {
    await endpoint('/order', ['account.created', 'account.updated']);
    answers.set('/order', [500, 500]);
    const id = await addAccount('Σειρά');
    for (let v = 1; v <= 3; v++) await json(admin.post('/api/account/update', { id, version: v, phone: `21000000${v}0` }));
    await until('four deliveries', () => new Set(at('/order').map((r) => r.delivery)).size === 4);
    const order = at('/order').map((r) => `${r.event}#${r.delivery}`);
    // The first was tried three times before the others went, each once, in order.
    const first = order[0]!;
    expect(order.slice(0, 3)).toEqual([first, first, first]);
    expect(order.slice(3).map((o) => o.split('#')[0])).toEqual(['account.updated', 'account.updated', 'account.updated']);
    const ids = at('/order').map((r) => r.delivery);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(at('/order').slice(3).map((r) => r.body.data)).toEqual(expect.arrayContaining([expect.anything()]));
  });

  it('switch an endpoint off after a day of failures, give up its waiting deliveries and alert the office; send again once it is on', async () => {
    const { webhook } = await endpoint('/down', ['property.created', 'account.created']);
    answers.set('/down', Array(1000).fill(500));
    // It has failed since yesterday.
    await t.db.execute(sql`update webhook_endpoints set failing_since = now() - interval '25 hours' where id = ${webhook.id}`);
    await addAccount('Εκτός');
    const off = await until('the switch-off', async () => {
      const items = (await json(admin.get('/api/Webhooks'))).items as { id: number; enabled: boolean; disabledOn: string | null; version: number }[];
      const w = items.find((i) => i.id === webhook.id)!;
      return !w.enabled && w;
    });
    expect(off.disabledOn).not.toBeNull();
    const deliveries = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items;
    expect(deliveries.map((d: { state: string }) => d.state)).toEqual(['failed']);
    expect(at('/down')).toHaveLength(1);
    const alerts = (await t.pool.query(`select content from alerts where source = 'Webhooks'`)).rows;
    expect(alerts.map((a) => a.content)).toEqual([`The webhook to http://localhost:${port}/down failed for 24 hours and was switched off. An office administrator can switch it on again under Settings, Webhooks.`]);
    // Switched off: nothing more is queued for it, and "send again" is refused until it is on.
    await addAccount('Σιωπή');
    expect((await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items).toHaveLength(1);
    expect((await admin.post(`/api/Webhooks/deliveries/${deliveries[0].id}/resend`)).statusCode).toBe(409);
    answers.set('/down', []);
    const on = await json(admin.post(`/api/Webhooks/${webhook.id}/enabled`, { enabled: true, version: off.version }));
    expect(on).toMatchObject({ enabled: true, failingSince: null, disabledOn: null });
    expect((await admin.post(`/api/Webhooks/${webhook.id}/enabled`, { enabled: false, version: off.version })).statusCode).toBe(409);
    const again = await json(admin.post(`/api/Webhooks/deliveries/${deliveries[0].id}/resend`));
    await until('the delivery sent again', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${webhook.id}/deliveries`))).items as { id: number; state: string }[];
      return items.find((d) => d.id === again.id)?.state === 'delivered';
    });
    expect(at('/down').at(-1)!.body.event).toBe('account.created');
  });

  it('seal a secret an earlier version kept in the clear, and still sign with it', async () => {
    const { webhook } = await endpoint('/legacy', ['account.created']);
    const clear = 'whsec_kept-in-the-clear-by-an-older-version-000000';
    secrets.set('/legacy', clear);
    await t.db.execute(sql`update webhook_endpoints set secret = ${clear} where id = ${webhook.id}`);
    expect(await sealOldWebhookSecrets(t.app)).toBe(1);
    const stored = (await t.db.execute(sql`select secret from webhook_endpoints where id = ${webhook.id}`)).rows[0] as { secret: string };
    expect(stored.secret).toMatch(/^v1:/);
    await addAccount('Παλαιό');
    const got = await until('the delivery', () => at('/legacy')[0]);
    expect(got.signed).toBe(true);
  });

  it('refuse addresses on link-local, metadata or private networks unless the setting allows private ones', async () => {
    const res = await admin.post('/api/Webhooks', { url: 'http://169.254.169.254/latest/meta-data', events: ['lead.created'] }, { lang: 'en' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.url).toEqual(['The address must start with https://.']);
    const meta = await admin.post('/api/Webhooks', { url: 'https://169.254.169.254/latest', events: ['lead.created'] }, { lang: 'en' });
    expect(meta.json().errors.url).toEqual(['This address is on a private or reserved network; webhooks are not sent there.']);
    const closed = { allowPrivate: false };
    for (const url of ['https://10.0.0.7/hook', 'https://192.168.1.20/hook', 'https://[::1]/hook', 'https://localhost/hook', 'https://[fe80::1]/x']) expect(urlProblem(url, closed), url).toBe('webhooks.errors.privateAddress');
    expect(urlProblem('http://localhost:8080/hook', closed)).toBe('webhooks.errors.httpsOnly');
    expect(urlProblem('https://hooks.example.com/crm', closed)).toBeNull();
    expect(urlProblem('https://user:pw@hooks.example.com/crm', closed)).toBe('webhooks.errors.badUrl');
    expect(['169.254.169.254', 'fe80::1', '0.0.0.0', '::ffff:169.254.1.1', 'fd00:ec2::254'].map(classifyAddress)).toEqual(['never', 'never', 'never', 'never', 'never']);
    expect(['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.0.1', '100.64.0.1', '::1', 'fd12::1'].map(classifyAddress)).toEqual(Array(7).fill('private'));
    expect(['8.8.8.8', '2a00:1450::1', '172.32.0.1'].map(classifyAddress)).toEqual(['public', 'public', 'public']);
    // An IPv4 address written as IPv6 is judged as the IPv4 address it reaches (the URL parser
    // rewrites [::ffff:127.0.0.1] as [::ffff:7f00:1]); NAT64 and 6to4 carry one too.
    for (const url of ['https://[::ffff:127.0.0.1]:8443/', 'https://[::ffff:10.0.0.5]/', 'https://[::ffff:169.254.169.254]/', 'https://[64:ff9b::a9fe:a9fe]/', 'https://[2002:a9fe:a9fe::1]/', 'https://[::127.0.0.1]/', 'https://[fec0::1]/'])
      expect(urlProblem(url, closed), url).toBe('webhooks.errors.privateAddress');
    expect(['::ffff:7f00:1', '0:0:0:0:0:ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a00:1::', '2001:0:4136:e378::1'].map(classifyAddress)).toEqual(['private', 'never', 'never', 'private', 'never']);
    expect(['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'].map(classifyAddress)).toEqual(['public', 'public', 'public']);
    // On sending, the name is resolved and every address checked: a name that points at this
    // machine gets no connection where private addresses are not allowed.
    const looked = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(closed)('localhost', {}, (err) => resolve(err)));
    expect(looked?.code).toBe('EADDRNOTALLOWED');
    const allowed = await new Promise<string>((resolve) => guardedLookup({ allowPrivate: true })('localhost', { family: 4 }, (_err, address) => resolve(String(address))));
    expect(allowed).toBe('127.0.0.1');
  });
});
