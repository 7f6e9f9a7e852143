import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startHeldS3App } from '../../../test/s3-holding-proxy.ts';

/**
 * Signing with the files in an S3-compatible store (s3rver, behind a proxy that can hold one request):
 * while the signed copy is being written, and the store is slow to take it, neither the request nor
 * the mandate it signs is locked, so staff saving the mandate meanwhile are not kept waiting.
 */
const { proxy, t } = await startHeldS3App('crm-sign-hold');
const admin = await t.user({ roles: ['admin'] });
const anon = t.client();

/** Whether a row can be locked for update right now (no waiting: NOWAIT fails at once if another holds it). */
const free = async (table: 'object_mandates' | 'sign_requests', id: number) => {
  const c = await t.pool.connect();
  try {
    await c.query('begin');
    await c.query(`select 1 from ${table} where id = $1 for update nowait`, [id]);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === '55P03') return false;
    throw e;
  } finally {
    await c.query('rollback');
    c.release();
  }
};

describe('signing while the store is slow', () => {
  it('locks neither the request nor the mandate while the signed copy is written, and stores it once the store answers', async () => {
    const owner = (await admin.post('/api/account/add', { firstName: 'Ελένη', lastName: 'Σταύρου', isOwner: true, email: 'eleni@example.gr' })).json().id as number;
    const o = (await admin.get('/api/object/add')).json() as { id: number };
    const m = await admin.post('/api/Mandate/update', { objectId: o.id, kind: 'exclusive', startDate: '2026-01-10', endDate: '2026-09-10', askingPrice: 185000, commissionPercent: 2, owners: [{ accountId: owner }] });
    expect(m.statusCode, m.body).toBe(200);
    const mandateId = m.json().id as number;
    const sent = await admin.post('/api/SignRequest/send', { source: 'mandate', id: mandateId, culture: 'el', name: 'Ελένη Σταύρου', email: 'eleni@example.gr' });
    expect(sent.statusCode, sent.body).toBe(200);
    const { url, request } = sent.json() as { url: string; request: { id: number } };
    const token = url.split('/Sign/')[1]!;

    // The store holds the signed copy's upload.
    const held = proxy.hold('PUT');
    const signing = anon.call('POST', `/api/sign/${token}`, { name: 'Ελένη Σταύρου', accept: true, signature: '' }, { remoteAddress: '203.0.113.9', lang: 'el' });
    await held;
    expect(await free('sign_requests', request.id)).toBe(true);
    expect(await free('object_mandates', mandateId)).toBe(true);

    proxy.release();
    const res = await signing;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'signed' });
    const [row] = (await t.db.execute(sql`select r.signed_name, f.user_name, f.size from sign_requests r join files f on f.id = r.signed_file_id where r.id = ${request.id}`)).rows as { signed_name: string; user_name: string; size: number }[];
    expect(row).toMatchObject({ signed_name: 'Ελένη Σταύρου' });
    expect(row!.user_name).toMatch(/υπογεγραμμένο|υπογραφ/i);
    expect(Number(row!.size)).toBeGreaterThan(1000);
    expect((await t.db.execute(sql`select count(*)::int as n from stored_files_pending`)).rows[0]).toEqual({ n: 0 });
  });
});
