import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { LinkKind, OWNER_RELATION, TENANT_RELATION } from '@crm/contract';
import { actionLog } from '../../db/schema/index.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { createTestApp } from '../../../test/harness.ts';
import { workbookOf } from '../../../test/xlsx.ts';

/**
 * The people of a document signed by link (decision 086): a deal's parties as its signers, the
 * sealed copy's SHA-256 in the mails that carry it, the signatures in the person's data export and
 * what their erasure keeps (decision 051).
 */
const t = await createTestApp();
const admin = await t.user({ roles: ['admin'] });
const employee = await t.user({ roles: ['employee'] });
const anon = t.client();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const storage = getFileStorage(t.dataDir);

const addAccount = async (firstName: string, lastName: string, fields: Record<string, unknown> = {}) => {
  const res = await admin.post('/api/account/add', { firstName, lastName, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const newProperty = async () => ((await admin.get('/api/object/add')).json() as { id: number }).id;
const seller = await addAccount('Κατερίνα', 'Σπανού', { isOwner: true, email: 'katerina.spanou@example.gr' });
const buyer = await addAccount('Dmitri', 'Qorvashin', { isClient: true, email: 'Dmitri.Qorvashin@example.com', phone: '+30 697 111 2233' });
const lawyer = await addAccount('Νίκος', 'Δικηγόρου', { email: 'lawyer@example.gr' });
const noMail = await addAccount('Άννα', 'Χωρίςμέιλ', { isClient: true });
const property = await newProperty();
const deal = await admin.post('/api/Deal/update', {
  dealType: 1,
  dealStage: 1,
  objectId: property,
  price: 240000,
  accounts: [
    { accountId: noMail, relation: 2 },
    { accountId: buyer, relation: 2 },
    { accountId: seller, relation: 1 },
    { accountId: lawyer, relation: 3 },
  ],
});
expect(deal.statusCode, deal.body).toBe(200);
const dealId = deal.json().id as number;
// The property's owner and tenant as its card links them (the handover protocol names these).
const tenant = await addAccount('Pavel', 'Tenantov', { email: 'pavel.t@example.com' });
await t.db.execute(sql`insert into object_accounts (object_id, account_id, relation) values (${property}, ${seller}, ${OWNER_RELATION}), (${property}, ${tenant}, ${TENANT_RELATION})`);

const send = async (source: string, id: number, name: string, email: string) => {
  const res = await employee.post('/api/SignRequest/send', { source, id, culture: 'en', name, email });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { url: string; request: { id: number } };
  return { ...body, token: body.url.split('/Sign/')[1]! };
};
const sign = (token: string, name: string) =>
  anon.call('POST', `/api/sign/${token}`, { name, accept: true, signature: '' }, { remoteAddress: '203.0.113.44', headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Quorvphone' } });
const row = async (id: number) => (await t.db.execute(sql`select * from sign_requests where id = ${id}`)).rows[0] as Record<string, unknown> | undefined;

describe('who signs a deal’s documents', () => {
  it('proposes the offer’s sellers then buyers, those with an e-mail first, not its lawyer', async () => {
    const list = (await employee.get(`/api/SignRequest?source=offer&id=${dealId}`)).json();
    expect(list.signers).toEqual([
      { accountId: seller, name: 'Κατερίνα Σπανού', email: 'katerina.spanou@example.gr', role: 'seller' },
      // As the card holds it; the link goes to it in lower case, and the account is found either way.
      { accountId: buyer, name: 'Dmitri Qorvashin', email: 'Dmitri.Qorvashin@example.com', role: 'buyer' },
      { accountId: noMail, name: 'Άννα Χωρίςμέιλ', email: null, role: 'buyer' },
    ]);
    expect(list.signer).toEqual({ name: 'Κατερίνα Σπανού', email: 'katerina.spanou@example.gr' });
  });

  it('proposes the deal’s parties for its property’s handover protocol, the owner and tenant without a deal, and refuses another property’s deal', async () => {
    const fromDeal = (await employee.get(`/api/SignRequest?source=handover&id=${property}&dealId=${dealId}`)).json();
    expect(fromDeal.signers.map((s: { accountId: number; role: string }) => [s.accountId, s.role])).toEqual([
      [seller, 'seller'],
      [buyer, 'buyer'],
      [noMail, 'buyer'],
    ]);
    const fromProperty = (await employee.get(`/api/SignRequest?source=handover&id=${property}`)).json();
    expect(fromProperty.signers.map((s: { accountId: number; role: string }) => [s.accountId, s.role])).toEqual([
      [seller, 'owner'],
      [tenant, 'tenant'],
    ]);
    const other = await employee.get(`/api/SignRequest?source=handover&id=${await newProperty()}&dealId=${dealId}`, { lang: 'el' });
    expect(other.statusCode).toBe(400);
    expect(other.json().title).toContain('άλλο ακίνητο');
    expect((await employee.get(`/api/SignRequest?source=handover&id=${property}&dealId=abc`)).statusCode).toBe(400);
  });

  it('lists on a deal’s page its own handover protocols, not those of the property’s earlier deals', async () => {
    const home = await newProperty();
    const tenantBefore = await addAccount('Old', 'Tenant', { email: 'old.tenant@example.com' });
    const tenantNow = await addAccount('Nina', 'Newcomer', { email: 'nina.newcomer@example.com' });
    const made = async (accountId: number) => {
      const res = await admin.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: home, accounts: [{ accountId: seller, relation: 1 }, { accountId, relation: 2 }] });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    };
    const before = await made(tenantBefore);
    const now = await made(tenantNow);
    const sendFrom = async (deal: number, name: string, email: string) => {
      const res = await employee.post('/api/SignRequest/send', { source: 'handover', id: home, dealId: deal, culture: 'en', name, email });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { request: { id: number } }).request.id;
    };
    const old = await sendFrom(before, 'Old Tenant', 'old.tenant@example.com');
    const mine = await sendFrom(now, 'Nina Newcomer', 'nina.newcomer@example.com');
    // The deal's party is found as that deal's signer (not by a guess at the address).
    expect((await row(mine))!).toMatchObject({ deal_id: now, signer_account_id: tenantNow });
    const listed = async (deal?: number) =>
      ((await employee.get(`/api/SignRequest?source=handover&id=${home}${deal ? `&dealId=${deal}` : ''}`)).json().items as { id: number }[]).map((r) => r.id);
    expect(await listed(now)).toEqual([mine]);
    expect(await listed(before)).toEqual([old]);
    // The property's own page lists them all.
    expect(await listed()).toEqual([mine, old]);
    // A deal of another property is refused, as for the list.
    const elsewhere = await employee.post('/api/SignRequest/send', { source: 'handover', id: await newProperty(), dealId: now, culture: 'en', name: 'X Y', email: 'x@example.com' });
    expect(elsewhere.statusCode).toBe(400);
  });
});

describe('the signed copy’s mail', () => {
  it('states the SHA-256 of the very file attached and stored, and of the document as read', async () => {
    const s = await send('offer', dealId, 'Κατερίνα Σπανού', 'katerina.spanou@example.gr');
    expect((await row(s.request.id))!.signer_account_id).toBe(seller);
    const res = await sign(s.token, 'Κατερίνα Σπανού');
    expect(res.statusCode, res.body).toBe(200);
    const r = (await row(s.request.id))!;
    const file = (await t.db.execute(sql`select system_name, parent_type, parent_id from files where id = ${r.signed_file_id as number}`)).rows[0] as { system_name: string; parent_type: number; parent_id: number };
    expect(file).toMatchObject({ parent_type: LinkKind.Deal, parent_id: dealId });
    const chunks: Buffer[] = [];
    for await (const c of (await storage.get(file.system_name))!) chunks.push(Buffer.from(c as Uint8Array));
    const storedHash = sha(Buffer.concat(chunks));
    expect(r.signed_sha256).toBe(storedHash);

    await t.lastMailTo('katerina.spanou@example.gr');
    for (const to of ['katerina.spanou@example.gr', employee.email]) {
      const raw = t.outbox().filter((m) => m.text.includes(`To: ${to}`)).at(-1)!.text;
      const mail = await simpleParser(raw);
      const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf')!;
      expect(sha(pdf.content)).toBe(storedHash);
      expect(mail.text).toContain(`SHA-256 of the attached signed copy: ${storedHash}.`);
      expect(mail.text).toContain(`(the first ${r.pdf_size as number} bytes of the signed copy): ${r.pdf_sha256 as string}`);
      expect(mail.html).toContain(storedHash);
    }
  });
});

describe('a signer’s personal data', () => {
  it('exports the person’s requests, with the name typed, time, address, device and both hashes', async () => {
    const s = await send('handover', property, 'Dmitri Qorvashin', 'dmitri.qorvashin@example.com');
    expect((await row(s.request.id))!.signer_account_id).toBe(buyer);
    expect((await sign(s.token, 'Dmitri Qorvashin')).statusCode).toBe(200);
    const open = await send('offer', dealId, 'Dmitri Qorvashin', 'dmitri.qorvashin@example.com');
    const r = (await row(s.request.id))!;

    const res = await admin.get(`/api/account/personal-data/${buyer}`, { lang: 'el' });
    expect(res.statusCode, res.body).toBe(200);
    const wb = await workbookOf(res);
    const ws = wb.getWorksheet('Έγγραφα προς υπογραφή')!;
    const rows: string[][] = [];
    ws.eachRow((x) => rows.push((x.values as unknown[]).slice(1).map((v) => (v instanceof Date ? 'date' : String(v ?? '')))));
    expect(rows[0]).toEqual(expect.arrayContaining(['Έγγραφο', 'Ονοματεπώνυμο όπως πληκτρολογήθηκε', 'Διεύθυνση IP', 'SHA-256 του υπογεγραμμένου αντιγράφου']));
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual(expect.arrayContaining([r.document_name, 'Dmitri Qorvashin', 'dmitri.qorvashin@example.com', 'Υπογράφηκε', '203.0.113.44', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Quorvphone', r.pdf_sha256, r.signed_sha256]));
    expect(rows[2]).toEqual(expect.arrayContaining(['Αναμένεται υπογραφή', (await row(open.request.id))!.pdf_sha256]));
    // Another party's requests are not the person's.
    expect(rows.flat().join(' ')).not.toContain('katerina.spanou@example.gr');
  });

  it('at erasure deletes the unsigned requests with their PDF and keeps the signed copy and its hashes without the person', async () => {
    const mine = (await t.db.execute(sql`select id, signed_on, pdf_system_name, signed_file_id, pdf_sha256, signed_sha256 from sign_requests where signer_account_id = ${buyer} order by id`)).rows as Record<string, unknown>[];
    const signed = mine.filter((m) => m.signed_on);
    const unsigned = mine.filter((m) => !m.signed_on);
    expect([signed.length, unsigned.length]).toEqual([1, 1]);
    const { version } = (await admin.get(`/api/account/view/${buyer}`)).json() as { version: number };
    const res = await admin.post(`/api/account/erase/${buyer}`, { version });
    expect(res.statusCode, res.body).toBe(200);

    expect(await row(unsigned[0]!.id as number)).toBeUndefined();
    expect(await storage.get(unsigned[0]!.pdf_system_name as string)).toBeUndefined();
    const kept = (await row(signed[0]!.id as number))!;
    expect(kept).toMatchObject({
      signer_name: `#${buyer}`, signed_name: `#${buyer}`, signer_email: `erased-${buyer}@invalid`, signed_ip: null, signed_user_agent: null, signer_account_id: null,
      pdf_sha256: signed[0]!.pdf_sha256, signed_sha256: signed[0]!.signed_sha256, signed_file_id: signed[0]!.signed_file_id,
    });
    // The proof stays: the sent PDF and the signed copy among the property's files, unchanged.
    expect(await storage.get(kept.pdf_system_name as string)).toBeDefined();
    const file = (await t.db.execute(sql`select system_name from files where id = ${kept.signed_file_id as number}`)).rows[0] as { system_name: string };
    const chunks: Buffer[] = [];
    for await (const c of (await storage.get(file.system_name))!) chunks.push(Buffer.from(c as Uint8Array));
    expect(sha(Buffer.concat(chunks))).toBe(kept.signed_sha256);
    // The log of the person's requests (sent, signed) keeps none of their values.
    const logs = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'SignRequest'), inArray(actionLog.entityId, mine.map((m) => m.id as number))));
    expect(logs.map((l) => l.action).sort()).toEqual(['SendForSignature', 'SendForSignature', 'Sign']);
    const text = JSON.stringify(logs);
    for (const v of ['Qorvashin', 'dmitri.qorvashin@example.com', '203.0.113.44', 'Quorvphone']) expect(text, v).not.toContain(v);
    const fileLog = JSON.stringify(await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'))));
    expect(fileLog).not.toContain('Qorvashin');
    const erased = (await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Account'), eq(actionLog.entityId, buyer), eq(actionLog.action, 'Erase'))))[0]!;
    expect(erased.data).toMatchObject({ signRequestsDeleted: 1, signedDocumentsKept: 1 });
    // The other party's signed request is untouched.
    const other = (await t.db.execute(sql`select signer_name, signed_ip from sign_requests where signer_account_id = ${seller}`)).rows;
    expect(other).toEqual([{ signer_name: 'Κατερίνα Σπανού', signed_ip: '203.0.113.44' }]);
  });

  it('leaves a request naming another person alone, though sent to an address both share (a couple)', async () => {
    const family = 'the.lazarou.family@example.gr';
    const wife = await addAccount('Ιωάννα', 'Λαζάρου', { isOwner: true, email: family });
    const husband = await addAccount('Πέτρος', 'Λαζάρου', { isOwner: true, email: family });
    const home = await newProperty();
    await t.db.execute(sql`insert into object_accounts (object_id, account_id, relation) values (${home}, ${wife}, ${OWNER_RELATION})`);
    const hers = await send('handover', home, 'Ιωάννα Λαζάρου', family);
    expect((await row(hers.request.id))!.signer_account_id).toBe(wife);
    expect((await sign(hers.token, 'Ιωάννα Λαζάρου')).statusCode).toBe(200);
    const pending = await send('handover', home, 'Ιωάννα Λαζάρου', family);

    // His data holds none of her requests; his erasure keeps them whole.
    const res = await admin.get(`/api/account/personal-data/${husband}`);
    const wb = await workbookOf(res);
    const sheet = wb.worksheets.find((w) => w.name.includes('ignature'))!;
    expect(sheet.rowCount).toBe(1);
    const { version } = (await admin.get(`/api/account/view/${husband}`)).json() as { version: number };
    expect((await admin.post(`/api/account/erase/${husband}`, { version })).statusCode).toBe(200);
    expect(await row(pending.request.id)).toMatchObject({ signer_account_id: wife, signer_name: 'Ιωάννα Λαζάρου' });
    expect(await row(hers.request.id)).toMatchObject({ signer_account_id: wife, signed_name: 'Ιωάννα Λαζάρου', signed_ip: '203.0.113.44' });
  });
});
