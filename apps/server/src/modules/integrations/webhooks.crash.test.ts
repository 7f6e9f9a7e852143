import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, json, poller } from '../../../test/harness.ts';
import { startChild, type AppChild } from '../../../test/app-children.ts';

/**
 * A webhook's sender killed -9 mid-send (decisions 080, 097): another CRM process (test/app-child.ts,
 * its job runner on) sends the delivery again. The receiver, a real HTTP server here that checks each
 * signature, got the first try and never answered it; the sender was killed before any answer was
 * recorded. A second process takes the dead one's job once its lease lapses and the endpoint once
 * its hold lapses (WEBHOOK_TIMEOUT_SECONDS + WEBHOOK_HOLD_EXTRA_SECONDS, 21 s here), and sends the
 * same event again as attempt 2, then the change made while no sender lived as attempt 1. The
 * delivery log holds each once.
 */
type Got = { delivery: number; attempt: number; id: number; event: string; signed: boolean; account: number | null };
const received: Got[] = [];
const hanging: http.ServerResponse[] = [];
let secret = '';
let firstTry: (g: Got) => void = () => {};
const firstReceived = new Promise<Got>((r) => (firstTry = r));

function verify(header: string, body: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m || Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(`${m[1]}.${body}`).digest(), Buffer.from(m[2]!, 'hex'));
}
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    const b = JSON.parse(body) as { id: number; event: string; record: { id: number | null } };
    const got: Got = { delivery: Number(req.headers['x-crm-delivery']), attempt: Number(req.headers['x-crm-attempt']), id: b.id, event: b.event, signed: verify(String(req.headers['x-crm-signature'] ?? ''), body), account: b.record.id };
    received.push(got);
    // The very first request is taken and never answered: its sender is killed while it waits.
    if (received.length === 1) {
      hanging.push(res);
      firstTry(got);
      return;
    }
    res.writeHead(got.signed ? 200 : 401).end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as AddressInfo).port;
const children: AppChild[] = [];
afterAll(async () => {
  for (const c of children) await c.stop();
  for (const r of hanging) r.destroy();
  await new Promise<void>((r) => receiver.close(() => r()));
});

const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, undefined, { jobs: false });
const admin = await t.user({ roles: ['admin'] });

/** Waits for a condition the other processes make true (looked at every 100 ms; fails after 90 s). */
const until = poller({ seconds: 90, everyMs: 100 });

// The receiver's time (20 s) long enough that a slow machine never records the held first try as
// timed out before the kill; the second sender waits that long for the dead one's hold to lapse.
const senderEnv = {
  CHILD_ENV: JSON.stringify({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_SECONDS: '20', WEBHOOK_HOLD_EXTRA_SECONDS: '1', WEBHOOK_RETRY_SECONDS: '1', MAIL_IDLE: 'false' }),
  CHILD_JOB_LEASE_SECONDS: '2',
};

describe('a webhook delivery whose sender was killed -9 mid-send', () => {
  it('is sent again by another process as attempt 2 of the same event; nothing is lost or doubled', async () => {
    const made = await json(admin.post('/api/Webhooks', { url: `http://localhost:${port}/crash`, events: ['account.created'] }));
    secret = made.secret as string;
    const endpointId = made.webhook.id as number;

    // The sending process: it takes the change's delivery and posts it; the receiver holds the request.
    const first = startChild(t, 'jobs', [], senderEnv);
    children.push(first);
    await first.said((l) => l === 'ready');
    const sofia = (await json(admin.post('/api/account/add', { firstName: 'Σοφία', lastName: 'Παππά' }))).id as number;
    const got = await firstReceived;
    expect(got).toMatchObject({ attempt: 1, event: 'account.created', signed: true, account: sofia });
    await first.killHard();
    expect(await first.exited).toBe('SIGKILL');
    // What the killed sender left: the try counted, no answer recorded.
    const left = await t.db.execute(sql`select id, state, attempts, last_status, last_error from webhook_deliveries where endpoint_id = ${endpointId}`);
    expect(left.rows).toEqual([{ id: got.delivery, state: 'pending', attempts: 1, last_status: null, last_error: null }]);

    // A change while no sender lives, then another process.
    const nikos = (await json(admin.post('/api/account/add', { firstName: 'Νίκος', lastName: 'Ζαχαρίου' }))).id as number;
    const second = startChild(t, 'jobs', [], senderEnv);
    children.push(second);
    await until('both deliveries recorded as delivered', async () => {
      const items = (await json(admin.get(`/api/Webhooks/${endpointId}/deliveries`))).items as { state: string }[];
      return items.length === 2 && items.every((d) => d.state === 'delivered');
    });
    const next = received[2]?.delivery;
    expect(next).toBeGreaterThan(got.delivery);
    // The same event again, its try counted up, then the later change once: in order, each signed.
    expect(received.map((r) => [r.delivery, r.id, r.attempt, r.account, r.signed])).toEqual([
      [got.delivery, got.delivery, 1, sofia, true],
      [got.delivery, got.delivery, 2, sofia, true],
      [next, next, 1, nikos, true],
    ]);
    const items = (await json(admin.get(`/api/Webhooks/${endpointId}/deliveries`))).items as { id: number; state: string; attempts: number; lastStatus: number | null; entityId: number }[];
    expect(items.map((d) => [d.id, d.entityId, d.state, d.attempts, d.lastStatus]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [got.delivery, sofia, 'delivered', 2, 200],
      [next, nikos, 'delivered', 1, 200],
    ]);
  }, 240_000);
});
