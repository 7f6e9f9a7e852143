import http from 'node:http';
import https from 'node:https';
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { WEBHOOK_ATTEMPT_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_SWITCH_OFF_HOURS } from '@crm/contract';
import type { JobContext } from '../../jobs/runner.ts';
import { createAlert } from '../alerts/alerts.create.ts';
import { guardedLookup, urlProblem } from './webhook-address.ts';
import { WEBHOOK_JOB, WEBHOOK_JOB_ATTEMPTS } from './webhook-queue.ts';
import { currentRecord } from './webhook-records.ts';
import { openWebhookSecret } from './webhook-secret.ts';

/** The signature header's value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint's secret>`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

type Endpoint = { id: number; url: string; secret: string };
type Delivery = { id: number; attempt?: number; event: string; entity: string; entity_id: number | null; payload: { action: string; by: string | null; data: unknown }; created_on: string };
type Outcome = { ok: boolean; status: number | null; error: string | null };

/**
 * The body sent: the event, when, the record, who, the logged change (`data`) and the record as the
 * API answers it now (`current`: null once deleted).
 */
export function webhookBody(d: Delivery, current: unknown): string {
  return JSON.stringify({
    id: d.id,
    event: d.event,
    occurredAt: new Date(d.created_on).toISOString(),
    record: { entity: d.entity, id: d.entity_id },
    action: d.payload.action,
    by: d.payload.by,
    data: d.payload.data,
    current,
  });
}

type Ready = { body: string; secret: string };

/**
 * What a try needs before anything is sent: an address still allowed, the record as it is now and
 * the opened secret. A try that stops here never reached the receiver, so it is not counted
 * (decision 097): its reason is logged as the try's outcome like any other failure.
 */
async function prepare(app: FastifyInstance, ep: Endpoint, d: Delivery): Promise<Ready | Outcome> {
  const problem = urlProblem(ep.url, { allowPrivate: app.config.integrations.webhookAllowPrivate });
  if (problem) return { ok: false, status: null, error: problem };
  // A record that cannot be read now (a schema it no longer meets) is sent as null rather than
  // holding back every later delivery; a secret that cannot be opened (the key changed) is a failure
  // of this delivery like any other, so the back-off, the switch-off and its alert still follow.
  const current = await currentRecord(app, d.entity, d.entity_id === null ? null : Number(d.entity_id), d.event).catch((e: unknown) => {
    app.log.error({ delivery: d.id, err: { message: (e as Error).message } }, 'webhook record not readable: sent as null');
    return null;
  });
  try {
    return { body: webhookBody(d, current), secret: openWebhookSecret(app, ep.secret) };
  } catch (e) {
    return { ok: false, status: null, error: (e as Error).message };
  }
}

/** One POST of a delivery: a 2xx answer within the time allowed is delivered; anything else is a failure with its reason. Redirects are not followed. */
async function post(app: FastifyInstance, ep: Endpoint, d: Delivery, { body, secret }: Ready, signal: AbortSignal): Promise<Outcome> {
  const rule = { allowPrivate: app.config.integrations.webhookAllowPrivate };
  const t = Math.floor(Date.now() / 1000);
  const u = new URL(ep.url);
  const lib = u.protocol === 'https:' ? https : http;
  const limit = app.config.integrations.webhookTimeoutMs;
  return new Promise<Outcome>((done) => {
    // One delivery never holds its endpoint longer than the time allowed, however slowly a receiver
    // answers (a byte every few seconds keeps an idle timeout from ever firing).
    let settled = false;
    const resolve = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      done(o);
    };
    const deadline = setTimeout(() => req.destroy(new Error(`No whole answer within ${limit / 1000} s`)), limit);
    const req = lib.request(
      u,
      {
        method: 'POST',
        lookup: guardedLookup(rule),
        timeout: limit,
        signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'AgencyCRM-Webhooks/1',
          'x-crm-event': d.event,
          'x-crm-delivery': String(d.id),
          // 1 on the first try; more on every later one (after a failure, or an instance that died mid-send).
          [WEBHOOK_ATTEMPT_HEADER.toLowerCase()]: String(d.attempt ?? 1),
          [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signWebhook(secret, t, body),
        },
      },
      (res) => {
        let text = '';
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const finish = () => resolve({ ok, status, error: ok ? null : `HTTP ${status}${text ? `: ${text.slice(0, 300)}` : ''}` });
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
          // Enough of the answer to say why it failed: the rest is not read.
          if (text.length >= 300) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', (e) => resolve({ ok: false, status: res.statusCode ?? null, error: e.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer within ${limit / 1000} s`)));
    req.on('error', (e) => resolve({ ok: false, status: null, error: e.message || String(e) }));
    req.end(body);
  });
}

/** How long an instance holds an endpoint while it sends one delivery: the receiver's time allowed and WEBHOOK_HOLD_EXTRA_SECONDS; another instance takes over this long after it died mid-send. */
const holdSeconds = (app: FastifyInstance) => Math.ceil(app.config.integrations.webhookTimeoutMs / 1000) + app.config.integrations.webhookHoldExtraSeconds;

/**
 * The job of one endpoint (decision 080): its waiting deliveries, oldest first, one at a time, by
 * one instance at a time (the endpoint is held while sent to). A failure stops the run: the
 * endpoint's next run is queued after a back-off (WEBHOOK_RETRY_SECONDS, doubling, at most an hour)
 * and starts again at that delivery, so a record's events arrive in the order they happened. Failing for WEBHOOK_SWITCH_OFF_HOURS without a success switches the endpoint
 * off, gives up its waiting deliveries and alerts the office.
 */
export async function sendEndpoint(app: FastifyInstance, endpointId: number, ctx: JobContext): Promise<void> {
  const hold = holdSeconds(app);
  const claim = await app.db.execute(sql`
    update webhook_endpoints set sending_until = now() + make_interval(secs => ${hold})
    where id = ${endpointId} and enabled and (sending_until is null or sending_until < now()) and (retry_at is null or retry_at <= now())
    returning id, url, secret`);
  const ep = claim.rows[0] as Endpoint | undefined;
  if (!ep) {
    // Held by another run (which may have looked before the newest delivery came), or waiting for its next try: look again then.
    const on = await app.db.execute(sql`select greatest(retry_at, now() + interval '2 seconds') as at from webhook_endpoints where id = ${endpointId} and enabled`);
    const row = on.rows[0] as { at: string } | undefined;
    if (row) await scheduleRun(app, endpointId, new Date(row.at));
    return;
  }
  try {
    for (;;) {
      if (ctx.signal.aborted) throw new Error('The app stopped while sending');
      const next = await app.db.execute(sql`
        select id, event, entity, entity_id, payload, created_on from webhook_deliveries
        where endpoint_id = ${endpointId} and state = 'pending' order by id limit 1`);
      const d = next.rows[0] as Delivery | undefined;
      if (!d) return;
      d.id = Number(d.id);
      const ready = await prepare(app, ep, d);
      let out: Outcome;
      if ('ok' in ready) out = ready;
      else {
        // The try is counted just before it is sent (decision 097): a delivery sent again after an
        // instance died mid-send (the receiver may have had it) says so in X-CRM-Attempt, never a
        // first try twice. The previous try's answer goes: this one has none yet.
        const started = await app.db.execute(sql`
          update webhook_deliveries set attempts = attempts + 1, last_attempt_on = now(), last_status = null, last_error = null
          where id = ${d.id} returning attempts`);
        d.attempt = Number((started.rows[0] as { attempts: number }).attempts);
        out = await post(app, ep, d, ready, ctx.signal);
      }
      await app.db.execute(sql`
        update webhook_deliveries set last_status = ${out.status}, last_error = ${out.error?.slice(0, 1000) ?? null}, last_attempt_on = now(),
          state = case when ${out.ok} then 'delivered' else state end, delivered_on = case when ${out.ok} then now() else null end
        where id = ${d.id}`);
      if (out.ok) {
        await app.db.execute(sql`update webhook_endpoints set failing_since = null, failures = 0, retry_at = null, sending_until = now() + make_interval(secs => ${hold}) where id = ${endpointId}`);
        continue;
      }
      // A failure: this delivery (and so every one after it) waits for the next try, each wait twice the last.
      const failing = await app.db.execute(sql`
        update webhook_endpoints set failing_since = coalesce(failing_since, now()), failures = failures + 1,
          retry_at = now() + make_interval(secs => least(${app.config.integrations.webhookRetrySeconds}::float8 * power(2, failures), ${MAX_WAIT_SECONDS}))
        where id = ${endpointId}
        returning failing_since < now() - make_interval(hours => ${WEBHOOK_SWITCH_OFF_HOURS}) as overdue, retry_at`);
      const f = failing.rows[0] as { overdue: boolean; retry_at: string } | undefined;
      if (!f) return;
      if (f.overdue) await switchOff(app, ep);
      else await scheduleRun(app, endpointId, new Date(f.retry_at));
      return;
    }
  } finally {
    await app.db.execute(sql`update webhook_endpoints set sending_until = null where id = ${endpointId}`);
  }
}

/** The longest wait between two tries. */
const MAX_WAIT_SECONDS = 3600;

/**
 * The endpoint's next run at `at` (a run queued already for sooner finds the endpoint waiting and
 * asks again for then). Never more than one run of an endpoint is queued.
 */
async function scheduleRun(app: FastifyInstance, endpointId: number, at: Date) {
  await app.jobs.enqueue(WEBHOOK_JOB, { endpointId }, { singletonKey: `endpoint:${endpointId}`, runAt: at, maxAttempts: WEBHOOK_JOB_ATTEMPTS });
}

/** A day of failures: the endpoint off, its waiting deliveries given up (each can be sent again), the office alerted. */
async function switchOff(app: FastifyInstance, ep: Endpoint) {
  await app.db.transaction(async (tx) => {
    const r = await tx.execute(sql`update webhook_endpoints set enabled = false, disabled_on = now(), version = version + 1 where id = ${ep.id} and enabled returning id`);
    if (!r.rows.length) return;
    await tx.execute(sql`update webhook_deliveries set state = 'failed' where endpoint_id = ${ep.id} and state = 'pending'`);
    await createAlert(tx, {
      source: 'Webhooks',
      kind: 'webhook',
      messageKey: 'alerts.msg.webhookSwitchedOff',
      params: { url: ep.url, hours: WEBHOOK_SWITCH_OFF_HOURS },
      content: `The webhook to ${ep.url} failed for ${WEBHOOK_SWITCH_OFF_HOURS} hours and was switched off. An office administrator can switch it on again under Settings, Webhooks.`,
    });
  });
}
