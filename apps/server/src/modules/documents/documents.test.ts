import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { createTestApp } from '../../../test/harness.ts';
import type { FormPart } from '../../../test/multipart.ts';
import { actionLog, documents, files } from '../../db/schema/index.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const TEXT = Buffer.from('Παράδοση κλειδιών\nKey handover\n');
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(120, 7), Buffer.from('This program cannot be run in DOS mode.')]);

const t = await createTestApp();
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });
const branchAgent = await t.user({ roles: ['employee'], branchId: 1 });

const save = (parts: FormPart[], lang = 'en') => agent.upload('/api/Documents/update', parts, { lang });
const storedFiles = () => {
  const root = path.join(t.dataDir, 'files');
  return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((n) => String(n).includes('.')).length : 0;
};
const counts = async () => ({
  docs: (await db.select().from(documents)).length,
  files: (await db.select().from(files)).length,
  log: (await db.select().from(actionLog)).length,
  disk: storedFiles(),
});

describe('documents', () => {
  let id = 0;
  it('creates a document with two files in one multipart call, with its action-log row', async () => {
    const res = await save([
      { field: 'name', value: 'Lease agreement (residential)' },
      { field: 'description', value: 'Standard lease for flats, Greek and English' },
      { field: 'files', name: 'lease-el.pdf', data: PDF },
      { field: 'files', name: 'σημειώσεις.txt', data: TEXT },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    id = d.id;
    expect(d).toMatchObject({ name: 'Lease agreement (residential)', description: 'Standard lease for flats, Greek and English', version: 1, file: 'lease-el.pdf' });
    // Who made it, by the sign-in's name (this one has no account of its own).
    expect(d).toMatchObject({ createdBy: agent.email, modifiedBy: agent.email });
    expect(d.files.map((f: { userName: string; mime: string }) => [f.userName, f.mime])).toEqual([
      ['lease-el.pdf', 'application/pdf'],
      ['σημειώσεις.txt', 'text/plain'],
    ]);
    // The first file at an address that ends in its own name (a tab opened on it is titled by it).
    expect(d.link).toBe(`/api/files/${d.files[0].systemName}/lease-el.pdf`);
    const stored = await db.select().from(files).where(and(eq(files.parentType, LinkKind.Document), eq(files.parentId, id)));
    expect(stored).toHaveLength(2);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Document'), eq(actionLog.entityId, id)));
    expect(log).toMatchObject({ action: 'Create', message: 'Lease agreement (residential)' });
    // The link opens the file (a PDF is shown in the browser).
    const file = await agent.get(d.link);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it('lists documents by name with their first file as the link; a search finds words of the description', async () => {
    await save([{ field: 'name', value: 'Απόδειξη παραλαβής κλειδιών' }]);
    const list = await agent.get('/api/Documents');
    expect(list.statusCode).toBe(200);
    expect(list.json().totalRows).toBe(2);
    expect(list.json().items.map((r: { name: string }) => r.name)).toEqual(['Lease agreement (residential)', 'Απόδειξη παραλαβής κλειδιών']);
    expect(list.json().items[1]).toMatchObject({ link: null, file: null, files: [] });
    const found = await agent.get('/api/Documents?searchStr=flats');
    expect(found.json().items.map((r: { id: number }) => r.id)).toEqual([id]);
    const paged = await agent.get('/api/Documents?perPage=1&currentPage=2');
    expect(paged.json()).toMatchObject({ totalRows: 2, items: [{ name: 'Απόδειξη παραλαβής κλειδιών' }] });
  });

  it('lists names in alphabetical order, accents and capitals set aside, in Greek and Latin alike', async () => {
    const names = ['Ωμέγα', 'Όροι μίσθωσης', 'Βεβαίωση', 'Άδεια', 'Éclair', 'zeta', 'Apple'];
    const made: number[] = [];
    for (const name of names) made.push((await save([{ field: 'name', value: name }])).json().id as number);
    const listed = ((await agent.get('/api/Documents?perPage=100')).json().items as { id: number; name: string }[]).filter((r) => made.includes(r.id)).map((r) => r.name);
    expect(listed).toEqual(['Apple', 'Éclair', 'zeta', 'Άδεια', 'Βεβαίωση', 'Όροι μίσθωσης', 'Ωμέγα']);
    for (const id of made) await agent.del(`/api/Documents/${id}`);
  });

  it('updates fields, adds and removes files with the version guard; a stale version is a 409 with the current document', async () => {
    const before = (await agent.get(`/api/Documents/edit/${id}`)).json();
    const txt = before.files.find((f: { userName: string }) => f.userName.endsWith('.txt'));
    const res = await save([
      { field: 'id', value: String(id) },
      { field: 'version', value: '1' },
      { field: 'name', value: 'Lease agreement' },
      { field: 'description', value: 'Standard lease' },
      { field: 'filesRemoved', value: String(txt.id) },
      { field: 'files', name: 'lease-en.pdf', data: PDF },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Lease agreement', version: 2 });
    expect(res.json().files.map((f: { userName: string }) => f.userName)).toEqual(['lease-el.pdf', 'lease-en.pdf']);
    expect(await agent.get(`/api/files/${txt.systemName}`).then((r) => r.statusCode)).toBe(404);

    const c = await counts();
    const stale = await save([
      { field: 'id', value: String(id) },
      { field: 'version', value: '1' },
      { field: 'name', value: 'Overwritten' },
      { field: 'files', name: 'more.pdf', data: PDF },
    ]);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ name: 'Lease agreement', version: 2 });
    expect(await counts()).toEqual(c);
  });

  it('refuses bad input with a translated 400 and changes nothing (no rows, no stored files, no log)', async () => {
    const c = await counts();
    const noName = await save([{ field: 'name', value: '   ' }, { field: 'files', name: 'a.pdf', data: PDF }], 'el');
    expect(noName.statusCode).toBe(400);
    expect(noName.json().errors.name).toBeDefined();
    expect(noName.json().title).not.toMatch(/^[a-z]+\./);
    const tooLong = await save([{ field: 'name', value: 'x'.repeat(201) }]);
    expect(tooLong.statusCode).toBe(400);
    const exe = await save([{ field: 'name', value: 'Program' }, { field: 'files', name: 'setup.pdf', data: EXE }]);
    expect(exe.statusCode).toBe(415);
    const badIds = await save([{ field: 'id', value: String(id) }, { field: 'version', value: '2' }, { field: 'name', value: 'x' }, { field: 'filesRemoved', value: '1;2' }]);
    expect(badIds.statusCode).toBe(400);
    const foreign = await save([{ field: 'id', value: String(id) }, { field: 'version', value: '2' }, { field: 'name', value: 'x' }, { field: 'filesRemoved', value: '999999' }]);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.filesRemoved).toBeDefined();
    const noVersion = await save([{ field: 'id', value: String(id) }, { field: 'name', value: 'x' }]);
    expect(noVersion.statusCode).toBe(428);
    const bigId = await save([{ field: 'id', value: '2147483648' }, { field: 'version', value: '1' }, { field: 'name', value: 'x' }]);
    expect(bigId.statusCode).toBe(400);
    const missing = await save([{ field: 'id', value: '999999' }, { field: 'version', value: '1' }, { field: 'name', value: 'x' }]);
    expect(missing.statusCode).toBe(404);
    const json = await agent.post('/api/Documents/update', { name: 'x' });
    expect(json.statusCode).toBeGreaterThanOrEqual(400);
    expect(json.statusCode).toBeLessThan(500);
    expect(await counts()).toEqual(c);
    expect((await agent.get('/api/Documents/edit/2147483648')).statusCode).toBe(400);
    expect((await agent.get('/api/Documents/edit/999999')).statusCode).toBe(404);
    expect((await agent.get('/api/Documents?perPage=0')).statusCode).toBe(400);
  });

  it('is open to every member of staff, branch users included, and to nobody signed out', async () => {
    expect((await branchAgent.get('/api/Documents')).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/Documents' })).statusCode).toBe(401);
    const client = await t.user({ roles: ['clientPayments'] });
    expect((await client.get('/api/Documents')).statusCode).toBe(403);
  });

  it('deletes a document with its files and their stored content', async () => {
    const doc = (await agent.get(`/api/Documents/edit/${id}`)).json();
    const res = await agent.del(`/api/Documents/${id}`);
    expect(res.statusCode).toBe(200);
    expect(await db.select().from(documents).where(eq(documents.id, id))).toHaveLength(0);
    expect(await db.select().from(files).where(and(eq(files.parentType, LinkKind.Document), eq(files.parentId, id)))).toHaveLength(0);
    for (const f of doc.files) expect((await agent.get(`/api/files/${f.systemName}`)).statusCode).toBe(404);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Document'), eq(actionLog.entityId, id), eq(actionLog.action, 'Delete')));
    expect(log?.data).toMatchObject({ files: ['lease-el.pdf', 'lease-en.pdf'] });
    expect((await agent.del(`/api/Documents/${id}`)).statusCode).toBe(404);
  });
});
