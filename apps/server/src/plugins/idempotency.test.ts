import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../test/harness.ts';

const t = await createTestApp();
const { db } = t;
const agent = await t.user({ roles: ['employee'] });
const other = await t.user({ roles: ['employee'] });

/** Headers of a change sent with its Idempotency-Key. */
const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });
const leadCount = async () => Number((await db.execute(sql`select count(*)::int as n from leads`)).rows[0]!.n);
let n = 0;
const newKey = () => `test-key-${Date.now()}-${++n}`;

describe('a change sent again with its Idempotency-Key', () => {
  it('is carried out once: the retry gets the first answer, marked as replayed', async () => {
    const key = newKey();
    const before = await leadCount();
    const first = await agent.post('/api/lead/add', {}, keyed(key));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await agent.post('/api/lead/add', {}, keyed(key));
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expect(await leadCount()).toBe(before + 1);
  });

  it('counts for the GET that makes a blank property: asked again, the same property and reference number, not a second', async () => {
    const objects = async () => Number((await db.execute(sql`select count(*)::int as n from objects`)).rows[0]!.n);
    const add = (key: string) => agent.get('/api/object/add', keyed(key));
    const key = newKey();
    const before = await objects();
    const first = await add(key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await add(key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toMatchObject({ id: first.json().id, referenceNumber: first.json().referenceNumber });
    expect(await objects()).toBe(before + 1);
    // Other GETs are read-only: a key there changes nothing.
    const view = await agent.get(`/api/object/edit/${first.json().id}`, keyed(key));
    expect(view.statusCode).toBe(200);
    expect(view.headers['idempotent-replayed']).toBeUndefined();
  });

  it('sent twice at the same moment, makes one record and gives both the same answer', async () => {
    const key = newKey();
    const before = await leadCount();
    const [a, b] = await Promise.all([agent.post('/api/lead/add', {}, keyed(key)), agent.post('/api/lead/add', {}, keyed(key))]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().id).toBe(b.json().id);
    expect(await leadCount()).toBe(before + 1);
  });

  it('without a key, or with another key or another user, is carried out each time', async () => {
    const before = await leadCount();
    await agent.post('/api/lead/add', {});
    await agent.post('/api/lead/add', {});
    const key = newKey();
    const mine = await agent.post('/api/lead/add', {}, keyed(key));
    const theirs = await other.post('/api/lead/add', {}, keyed(key));
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await leadCount()).toBe(before + 4);
  });

  it('refuses the same key for a different change, and a malformed key, in the reader’s language', async () => {
    const key = newKey();
    const id = (await agent.post('/api/lead/add', {}, keyed(key))).json().id as number;
    const reused = await agent.post('/api/lead/update', { id, version: 1, bedroomsMin: 2 }, keyed(key));
    expect(reused.statusCode).toBe(422);
    expect(reused.json().title).toMatch(/already used for a different change/);
    const bad = await agent.post('/api/lead/add', {}, { ...keyed('short'), lang: 'el' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().title).toMatch(/Idempotency-Key/);
    expect(bad.json().title).toMatch(/γράμματα/);
  });

  it('does not keep a refusal: the same request sent again is carried out again', async () => {
    const id = (await agent.post('/api/lead/add', {})).json().id as number;
    const key = newKey();
    const stale = await agent.post('/api/lead/update', { id, version: 7, bedroomsMin: 2 }, keyed(key));
    expect(stale.statusCode).toBe(409);
    const again = await agent.post('/api/lead/update', { id, version: 7, bedroomsMin: 2 }, keyed(key));
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect((await db.execute(sql`select count(*)::int as n from idempotent_requests where key = ${key}`)).rows[0]!.n).toBe(0);
    // An update that succeeds is kept like a creation: sent again, it is not refused as stale.
    const okKey = newKey();
    const ok = await agent.post('/api/lead/update', { id, version: 1, bedroomsMin: 2 }, keyed(okKey));
    expect(ok.statusCode, ok.body).toBe(200);
    const replay = await agent.post('/api/lead/update', { id, version: 1, bedroomsMin: 2 }, keyed(okKey));
    expect(replay.statusCode).toBe(200);
    expect(replay.json().version).toBe(ok.json().version);
  });

  it('marks the key as made in the change’s own commit; a retry after the answer was lost is told it was saved, and makes nothing', async () => {
    const key = newKey();
    const before = await leadCount();
    const first = await agent.post('/api/lead/add', {}, keyed(key));
    expect(first.statusCode, first.body).toBe(200);
    const row = async () => (await db.execute(sql`select status, made_at is not null as made from idempotent_requests where key = ${key}`)).rows[0];
    expect(await row()).toMatchObject({ status: 200, made: true });
    // The instance died between its commit and keeping the answer: made, no answer, its lease run out.
    await db.execute(sql`update idempotent_requests set status = null, body = null, content_type = null, claimed_until = now() - interval '1 second' where key = ${key}`);
    const retry = await agent.post('/api/lead/add', {}, { ...keyed(key), lang: 'el' });
    expect(retry.statusCode).toBe(409);
    expect(retry.json().code).toBe('errors.idempotencyAnswerLost');
    expect(retry.json().title).toMatch(/αποθηκεύτηκε/);
    expect(await leadCount()).toBe(before + 1);
    // Not made (it died before its commit): the retry takes the key over and makes it.
    const lost = newKey();
    await db.execute(sql`insert into idempotent_requests (user_id, key, request_hash, claimed_until)
      select user_id, ${lost}, request_hash, now() - interval '1 second' from idempotent_requests where key = ${key}`);
    const taken = await agent.post('/api/lead/add', {}, keyed(lost));
    expect(taken.statusCode, taken.body).toBe(200);
    expect(await leadCount()).toBe(before + 2);
  });

  it('forgets answers after a day (the daily purge)', async () => {
    const key = newKey();
    await agent.post('/api/lead/add', {}, keyed(key));
    await db.execute(sql`update idempotent_requests set created_on = now() - interval '25 hours' where key = ${key}`);
    const { purgeIdempotentRequests } = await import('./idempotency.ts');
    await purgeIdempotentRequests(db);
    expect((await db.execute(sql`select count(*)::int as n from idempotent_requests where key = ${key}`)).rows[0]!.n).toBe(0);
  });
});
