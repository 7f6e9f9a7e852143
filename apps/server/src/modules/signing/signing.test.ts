import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { LinkKind } from '@crm/contract';
import { actionLog } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { readPdf } from '../../../test/pdf-text.ts';

const t = await createTestApp();
const admin = await t.user({ roles: ['admin'] });
const employee = await t.user({ roles: ['employee'] });
const anon = t.client();
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const addAccount = async (firstName: string, lastName: string, fields: Record<string, unknown> = {}) => {
  const res = await admin.post('/api/account/add', { firstName, lastName, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const owner = await addAccount('Γιώργος', 'Παπαδόπουλος', { isOwner: true, email: 'giorgos@example.gr', taxNumber: '090000045' });
const newMandate = async () => {
  const o = (await admin.get('/api/object/add')).json() as { id: number };
  const res = await admin.post('/api/Mandate/update', { objectId: o.id, kind: 'exclusive', startDate: '2026-01-10', endDate: '2026-09-10', askingPrice: 185000, commissionPercent: 2, owners: [{ accountId: owner }] });
  expect(res.statusCode, res.body).toBe(200);
  return { objectId: o.id, mandate: res.json() as { id: number; version: number } & Record<string, unknown> };
};
const send = async (mandateId: number, extra: Record<string, unknown> = {}, as = employee) => {
  const res = await as.post('/api/SignRequest/send', { source: 'mandate', id: mandateId, culture: 'el', name: 'Γιώργος Παπαδόπουλος', email: 'giorgos@example.gr', ...extra });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { url: string; request: { id: number; sha256: string; version: number; status: string } };
  return { ...body, token: body.url.split('/Sign/')[1]! };
};
const drawn = async () => {
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="150"><path d="M10 100 C 80 10, 150 140, 390 40" stroke="black" stroke-width="4" fill="none"/></svg>');
  return `data:image/png;base64,${(await sharp(svg).png().toBuffer()).toString('base64')}`;
};
const sign = (token: string, body: Record<string, unknown>, ip = '203.0.113.7') =>
  anon.call('POST', `/api/sign/${token}`, { name: 'Γιώργος Παπαδόπουλος', accept: true, signature: '', ...body }, { remoteAddress: ip, lang: 'el', headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' } });
const propertyFiles = async (objectId: number) => (await employee.get(`/api/files?parentType=${LinkKind.Object}&parentId=${objectId}`)).json().items as { id: number; systemName: string; userName: string }[];

describe('sending a document for signature', () => {
  it('refuses bad input, unknown records, callers without a sign-in and payments clients', async () => {
    const { mandate } = await newMandate();
    const base = { source: 'mandate', id: mandate.id, culture: 'el', name: 'Γιώργος Παπαδόπουλος', email: 'giorgos@example.gr' };
    for (const bad of [{ email: 'not-an-address' }, { name: ' ' }, { source: 'invoice' }, { id: 0 }, { culture: 'de' }, { email: undefined }]) {
      expect((await employee.post('/api/SignRequest/send', { ...base, ...bad })).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await employee.post('/api/SignRequest/send', { ...base, id: 2147483600 })).statusCode).toBe(404);
    expect((await anon.post('/api/SignRequest/send', base)).statusCode).toBe(401);
    const payments = await t.user({ roles: ['clientPayments'] });
    expect((await payments.post('/api/SignRequest/send', base)).statusCode).toBe(403);
    expect((await payments.get(`/api/SignRequest?source=mandate&id=${mandate.id}`)).statusCode).toBe(403);
    expect((await payments.post('/api/SignRequest/revoke', { id: 1, version: 1 })).statusCode).toBe(403);
    expect((await t.db.execute(sql`select count(*)::int as n from sign_requests where source_id = ${mandate.id}`)).rows[0]).toEqual({ n: 0 });
  });

  it('stores the exact PDF and its hash, keeps only the link’s hash, mails the signer in Greek and lists it with the owner as default signer', async () => {
    const { mandate } = await newMandate();
    const s = await send(mandate.id);
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = (await t.db.execute(sql`select token_hash, pdf_sha256, expires_on - sent_on as days from sign_requests where id = ${s.request.id}`)).rows as { token_hash: string; pdf_sha256: string }[];
    expect(row!.token_hash).toBe(sha(Buffer.from(s.token)));
    expect(JSON.stringify(row)).not.toContain(s.token);
    const mail = await t.lastMailTo('giorgos@example.gr');
    expect(mail).toContain(s.url);
    expect(mail).toContain('Για υπογραφή');
    expect(mail).toContain('απλή ηλεκτρονική υπογραφή');
    const list = (await employee.get(`/api/SignRequest?source=mandate&id=${mandate.id}`)).json();
    expect(list.signer).toEqual({ name: 'Γιώργος Παπαδόπουλος', email: 'giorgos@example.gr' });
    expect(list.items).toMatchObject([{ id: s.request.id, status: 'sent', signerEmail: 'giorgos@example.gr', sha256: row!.pdf_sha256 }]);
    const page = await anon.get(`/api/sign/${s.token}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.json()).toMatchObject({ status: 'sent', language: 'el', sha256: row!.pdf_sha256, pdfAvailable: true });
    const pdf = await anon.get(`/api/sign/${s.token}/pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(sha(pdf.rawPayload)).toBe(row!.pdf_sha256);
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'SignRequest'), eq(actionLog.entityId, s.request.id)));
    expect(log).toMatchObject({ action: 'SendForSignature' });
  });
});

describe('signing by link', () => {
  it('seals once when the signature is posted twice: the sent bytes kept as a prefix, a last page naming the signer and the hash, filed and mailed', async () => {
    const { mandate, objectId } = await newMandate();
    const s = await send(mandate.id);
    const signature = await drawn();
    const [a, b] = await Promise.all([sign(s.token, { signature }), sign(s.token, { signature })]);
    expect([a.statusCode, b.statusCode], a.body + b.body).toEqual([200, 200]);
    expect(a.json().status).toBe('signed');
    expect(b.json().status).toBe('signed');
    const files = (await propertyFiles(objectId)).filter((f) => f.userName.includes('υπογεγραμμένο'));
    expect(files).toHaveLength(1);
    expect((await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'SignRequest'), eq(actionLog.entityId, s.request.id), eq(actionLog.action, 'Sign')))).length).toBe(1);

    const original = (await t.db.execute(sql`select pdf_size, pdf_sha256, signed_ip, signed_name from sign_requests where id = ${s.request.id}`)).rows[0] as { pdf_size: number; pdf_sha256: string; signed_ip: string; signed_name: string };
    expect(original).toMatchObject({ signed_ip: '203.0.113.7', signed_name: 'Γιώργος Παπαδόπουλος' });
    const sealed = (await employee.get(`/api/files/${files[0]!.systemName}`)).rawPayload;
    expect(sha(sealed.subarray(0, original.pdf_size))).toBe(original.pdf_sha256);
    const sent = await PDFDocument.load(sealed.subarray(0, original.pdf_size));
    const signed = await PDFDocument.load(sealed);
    expect(signed.getPageCount()).toBe(sent.getPageCount() + 1);
    // Every offset of the appended cross-reference section points at its object.
    const tail = sealed.subarray(original.pdf_size).toString('latin1');
    const xref = tail.slice(tail.lastIndexOf('xref'), tail.indexOf('trailer'));
    let num = 0;
    for (const line of xref.split('\n').slice(1)) {
      const sub = /^(\d+) (\d+)$/.exec(line);
      if (sub) num = Number(sub[1]);
      const entry = /^(\d{10}) (\d{5}) n $/.exec(line);
      if (entry) expect(sealed.subarray(Number(entry[1]), Number(entry[1]) + 20).toString('latin1')).toMatch(new RegExp(`^${num++} 0 obj`));
    }
    const read = readPdf(sealed);
    const last = flat(read.pages.at(-1)!);
    expect(read.pages.length).toBe(sent.getPageCount() + 1);
    expect(last).toContain('Πρακτικό ηλεκτρονικής υπογραφής');
    expect(last).toContain('Γιώργος Παπαδόπουλος');
    expect(last).toContain(original.pdf_sha256);
    expect(last).toContain('203.0.113.7');
    expect(last).toContain('iPhone');
    expect(last).toMatch(/Europe\/Athens, UTC\+0[23]:00/);
    expect(last).toContain('eIDAS');
    expect(read.images).toBeGreaterThan(0);

    // Waits for the mails queued after the commit, then reads the signer's raw mail (its attachment).
    expect(await t.lastMailTo('giorgos@example.gr')).toContain('Υπογεγραμμένο');
    const toSigner = t.outbox().filter((m) => m.text.includes('To: giorgos@example.gr')).at(-1)!.text;
    expect(toSigner).toContain('application/pdf');
    const toAgent = await t.lastMailTo(employee.email);
    expect(toAgent).toContain('Γιώργος Παπαδόπουλος');
    // The link now gives the signed copy, and signing again changes nothing.
    const view = (await anon.get(`/api/sign/${s.token}`)).json();
    expect(view).toMatchObject({ status: 'signed', pdfAvailable: true });
    expect(sha((await anon.get(`/api/sign/${s.token}/pdf`)).rawPayload)).toBe(sha(sealed));
    expect((await sign(s.token, { signature })).json().status).toBe('signed');
    expect((await propertyFiles(objectId)).filter((f) => f.userName.includes('υπογεγραμμένο'))).toHaveLength(1);
    expect((await employee.post('/api/SignRequest/revoke', { id: s.request.id, version: 2 })).statusCode).toBe(409);
    const listed = (await employee.get(`/api/SignRequest?source=mandate&id=${mandate.id}`)).json().items[0];
    expect(listed).toMatchObject({ status: 'signed', signedName: 'Γιώργος Παπαδόπουλος', signedFile: { systemName: files[0]!.systemName, userName: files[0]!.userName } });
  });

  it('signs by the typed name alone, and refuses a missing acceptance, a name left out and a signature that is not a PNG', async () => {
    const { mandate } = await newMandate();
    const s = await send(mandate.id);
    expect((await sign(s.token, { accept: false })).statusCode).toBe(400);
    expect((await sign(s.token, { name: '' })).statusCode).toBe(400);
    expect((await sign(s.token, { signature: `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}` })).statusCode).toBe(400);
    expect((await sign(s.token, { signature: 'data:image/svg+xml;base64,PHN2Zz4=' })).statusCode).toBe(400);
    expect((await sign(s.token, { signature: `data:image/png;base64,${'A'.repeat(300_000)}` })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await anon.get(`/api/sign/${s.token}`)).json().status).toBe('sent');
    const ok = await sign(s.token, {});
    expect(ok.statusCode, ok.body).toBe(200);
    const { signed_file_id } = (await t.db.execute(sql`select signed_file_id from sign_requests where id = ${s.request.id}`)).rows[0] as { signed_file_id: number };
    const [file] = (await t.db.execute(sql`select system_name from files where id = ${signed_file_id}`)).rows as { system_name: string }[];
    const text = flat(readPdf((await employee.get(`/api/files/${file!.system_name}`)).rawPayload).pages.at(-1)!);
    expect(text).toContain('Δεν σχεδιάστηκε υπογραφή');
  });

  it('voids the link when the mandate changes after sending: the page says so and signing is refused', async () => {
    const { mandate } = await newMandate();
    const s = await send(mandate.id);
    const edit = await admin.post('/api/Mandate/update', { ...mandate, owners: [{ accountId: owner }], askingPrice: 179000 });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await anon.get(`/api/sign/${s.token}`)).json()).toMatchObject({ status: 'voided', pdfAvailable: false });
    const refused = await sign(s.token, {}, '203.0.113.8');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().title).toContain('τροποποιήθηκε');
    expect((await anon.get(`/api/sign/${s.token}/pdf`)).statusCode).toBe(409);
    expect((await employee.get(`/api/SignRequest?source=mandate&id=${mandate.id}`)).json().items[0].status).toBe('voided');
  });

  it('voids the link when an owner’s printed identity changes after sending (the tax number), not when a field the document does not print does', async () => {
    const seller = await addAccount('Ελένη', 'Νικολάου', { isOwner: true, email: 'eleni@example.gr', taxNumber: '090000045' });
    const o = (await admin.get('/api/object/add')).json() as { id: number };
    const m = await admin.post('/api/Mandate/update', { objectId: o.id, kind: 'exclusive', startDate: '2026-01-10', endDate: '2026-09-10', askingPrice: 185000, commissionPercent: 2, owners: [{ accountId: seller }] });
    expect(m.statusCode, m.body).toBe(200);
    const s = await send(m.json().id, { name: 'Ελένη Νικολάου', email: 'eleni@example.gr' });
    const updateAccount = async (fields: Record<string, unknown>) => {
      const { version } = (await admin.get(`/api/account/view/${seller}`)).json() as { version: number };
      const res = await admin.post('/api/account/update', { id: seller, version, ...fields });
      expect(res.statusCode, res.body).toBe(200);
    };
    // Internal notes are not printed: the link stays good.
    await updateAccount({ notes: 'Προτιμά τηλεφωνική επικοινωνία το απόγευμα.' });
    expect((await anon.get(`/api/sign/${s.token}`)).json()).toMatchObject({ status: 'sent', pdfAvailable: true });
    expect((await anon.get(`/api/sign/${s.token}/pdf`)).statusCode).toBe(200);
    // The tax number corrected: the sent PDF names the old one, so it may no longer be signed.
    await updateAccount({ taxNumber: '094019245' });
    expect((await anon.get(`/api/sign/${s.token}`)).json()).toMatchObject({ status: 'voided', pdfAvailable: false });
    expect((await anon.get(`/api/sign/${s.token}/pdf`)).statusCode).toBe(409);
    const refused = await sign(s.token, { name: 'Ελένη Νικολάου' }, '203.0.113.10');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().title).toContain('τροποποιήθηκε');
    expect((await t.db.execute(sql`select signed_on from sign_requests where id = ${s.request.id}`)).rows[0]).toEqual({ signed_on: null });
    expect((await employee.get(`/api/SignRequest?source=mandate&id=${m.json().id}`)).json().items[0].status).toBe('voided');
  });

  it('says an expired or revoked link is so, in the link’s language, and refuses to sign it', async () => {
    const { mandate } = await newMandate();
    const old = await send(mandate.id);
    await t.db.execute(sql`update sign_requests set expires_on = now() - interval '1 minute' where id = ${old.request.id}`);
    expect((await anon.get(`/api/sign/${old.token}`)).json().status).toBe('expired');
    const expired = await sign(old.token, {}, '203.0.113.9');
    expect(expired.statusCode).toBe(410);
    expect(expired.json().title).toContain('έχει λήξει');

    const s = await send(mandate.id);
    expect((await employee.post('/api/SignRequest/revoke', { id: s.request.id })).statusCode).toBe(428);
    expect((await employee.post('/api/SignRequest/revoke', { id: s.request.id, version: 7 })).statusCode).toBe(409);
    const revoked = await employee.post('/api/SignRequest/revoke', { id: s.request.id, version: s.request.version });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().status).toBe('revoked');
    expect((await anon.get(`/api/sign/${s.token}`)).json().status).toBe('revoked');
    const refused = await sign(s.token, {}, '203.0.113.9');
    expect(refused.statusCode).toBe(410);
    expect(refused.json().title).toContain('ανακαλέσει');
    const statuses = (await employee.get(`/api/SignRequest?source=mandate&id=${mandate.id}`)).json().items.map((i: { status: string }) => i.status);
    expect(statuses).toEqual(['revoked', 'expired']);
  });

  it('knows one link per request only, and slows a stream of posts from one address', async () => {
    expect((await anon.get(`/api/sign/${'x'.repeat(43)}`)).statusCode).toBe(404);
    expect((await anon.get('/api/sign/short')).statusCode).toBe(400);
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await sign('y'.repeat(43), {}, '198.51.100.1')).statusCode);
    expect(codes.slice(0, 20).every((c) => c === 404)).toBe(true);
    expect(codes[20]).toBe(429);
  });

  it('answers an address that guesses links a 429 before any lookup, even for a real link; another address reads it', async () => {
    const { mandate } = await newMandate();
    const s = await send(mandate.id);
    const view = (token: string, ip: string) => anon.call('GET', `/api/sign/${token}`, undefined, { remoteAddress: ip });
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) codes.push((await view(`${String(i).padStart(2, '0')}${'z'.repeat(41)}`, '198.51.100.2')).statusCode);
    expect(codes.every((c) => c === 404)).toBe(true);
    expect((await view(s.token, '198.51.100.2')).statusCode).toBe(429);
    expect((await anon.call('GET', `/api/sign/${s.token}/pdf`, undefined, { remoteAddress: '198.51.100.2' })).statusCode).toBe(429);
    expect((await view(s.token, '198.51.100.3')).statusCode).toBe(200);
  });
});
