import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { createTestApp, type CallOptions, type Client } from '../../../test/harness.ts';
import { accounts, actionLog, activities, activityLinks, files } from '../../db/schema/index.ts';
import { purgeOrphanFiles } from './files.service.ts';
import { zip as zipOf } from '../../../test/zip.ts';

// ----- tiny real files -----------------------------------------------------------------------

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(120, 7), Buffer.from('This program cannot be run in DOS mode.')]);
const SVG = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>\n');
const HTML = Buffer.from('<!DOCTYPE html>\n<html><body><script>alert(1)</script></body></html>\n');
const XML = Buffer.from('<?xml version="1.0"?>\n<listing><ref>123</ref></listing>\n');
const TEXT = Buffer.from('Viewing notes\nΣημειώσεις επίσκεψης\nЗаметки\n');

/** A zip archive of stored entries, as [name, text] pairs. */
const zip = (entries: [string, string][]) => zipOf(entries.map(([name, data]) => ({ name, data })));

const DOCX = zip([
  ['[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'],
  ['_rels/.rels', '<?xml version="1.0"?><Relationships/>'],
  ['word/document.xml', '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>'],
]);
const ODS = zip([
  ['mimetype', 'application/vnd.oasis.opendocument.spreadsheet'],
  ['content.xml', '<?xml version="1.0"?><office:document-content/>'],
]);
const ZIP = zip([['notes.txt', 'hello']]);

/** A minimal OLE2 compound file (the container of .doc, .xls, .ppt, .msi) with the given stream names. */
function compound(streams: string[]): Buffer {
  const header = Buffer.alloc(512, 0);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c); // one FAT sector
  header.writeUInt32LE(1, 0x30); // directory starts at sector 1
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(0xfffffffe, 0x3c);
  header.writeUInt32LE(0xfffffffe, 0x44);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : 0xffffffff, 0x4c + i * 4);
  const fat = Buffer.alloc(512, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0);
  fat.writeUInt32LE(0xfffffffe, 4);
  const dir = Buffer.alloc(512, 0);
  ['Root Entry', ...streams].slice(0, 4).forEach((name, i) => {
    const e = dir.subarray(i * 128, i * 128 + 128);
    e.write(name, 0, 'utf16le');
    e.writeUInt16LE((name.length + 1) * 2, 0x40);
    e[0x42] = i === 0 ? 5 : 2;
  });
  return Buffer.concat([header, fat, dir]);
}

type Part = { name: string; data: Buffer; type?: string };

/** The parts of an upload, under the field `files`. */
const asFiles = (parts: Part[]) => parts.map((p) => ({ field: 'files', ...p }));

/** Every stored file under DATA_DIR/files (not the scratch folder). */
function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name))
    .filter((p) => !p.includes(`${path.sep}.incoming`));
}

const t = await createTestApp();
const staff = await t.user({ roles: ['employee'] });
const admin = await t.user({ roles: ['admin'] });

const upload = (parts: Part[], as: Client = staff, opts?: CallOptions) => as.upload('/api/files', asFiles(parts), opts);

async function newAccount(lastName = 'Papadopoulos') {
  const [a] = await t.db.insert(accounts).values({ firstName: 'Maria', lastName }).returning({ id: accounts.id });
  return a!.id;
}

describe('upload (POST /api/files)', () => {
  it('stores real files of the allowed kinds, typed by their content', async () => {
    const res = await upload([
      { name: 'facade.png', data: PNG, type: 'image/png' },
      { name: 'contract.pdf', data: PDF },
      { name: 'offer.docx', data: DOCX },
      { name: 'prices.ods', data: ODS },
      { name: 'notes.txt', data: TEXT, type: 'text/plain' },
      { name: 'owners.csv', data: Buffer.from('name;phone\nΜαρία;6900000000\n') },
      { name: 'export.xml', data: XML },
      { name: 'photos.zip', data: ZIP },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { id: number; systemName: string; userName: string; mime: string; size: number }[];
    expect(body.map((f) => [f.userName, f.mime])).toEqual([
      ['facade.png', 'image/png'],
      ['contract.pdf', 'application/pdf'],
      ['offer.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['prices.ods', 'application/vnd.oasis.opendocument.spreadsheet'],
      ['notes.txt', 'text/plain'],
      ['owners.csv', 'text/csv'],
      ['export.xml', 'application/xml'],
      ['photos.zip', 'application/zip'],
    ]);
    expect(body[0]!.size).toBe(PNG.length);
    // random stored names, unrelated to the user's name
    for (const f of body) expect(f.systemName).toMatch(/^[0-9a-f]{32}\.[a-z0-9]+$/);
    expect(new Set(body.map((f) => f.systemName)).size).toBe(body.length);
    const rows = await t.db.select().from(files).where(eq(files.id, body[0]!.id));
    expect(rows[0]).toMatchObject({ userName: 'facade.png', mime: 'image/png', size: PNG.length, createdBy: staff.id, parentType: null });
    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'), eq(actionLog.entityId, body[0]!.id)));
    expect(logged.map((l) => l.action)).toEqual(['Create']);
  });

  it('the type is decided by content: a renamed .exe, an SVG and an HTML page are refused, naming the file', async () => {
    const before = storedFiles(t.dataDir).length;
    const exe = await upload([{ name: 'invoice.pdf', data: EXE, type: 'application/pdf' }]);
    expect(exe.statusCode).toBe(415);
    expect(exe.json().title).toBe('The file “invoice.pdf” was not uploaded: files of this type are not accepted.');

    const svg = await upload([{ name: 'logo.png', data: SVG, type: 'image/png' }]);
    expect(svg.statusCode).toBe(415);
    expect(svg.json().title).toContain('logo.png');

    const html = await upload([{ name: 'readme.txt', data: HTML, type: 'text/plain' }]);
    expect(html.statusCode).toBe(415);

    const greek = await upload([{ name: 'setup.pdf', data: EXE }], staff, { lang: 'el' });
    expect(greek.json().title).toBe('Το αρχείο «setup.pdf» δεν ανέβηκε: αρχεία αυτού του τύπου δεν γίνονται δεκτά.');
    expect(storedFiles(t.dataDir).length).toBe(before);
  });

  it('is all or nothing: one bad file in a batch stores none of them', async () => {
    const count = async () => (await t.db.select({ id: files.id }).from(files)).length;
    const rowsBefore = await count();
    const diskBefore = storedFiles(t.dataDir).length;
    const res = await upload([
      { name: 'ok.png', data: PNG },
      { name: 'virus.docx', data: EXE },
      { name: 'ok.pdf', data: PDF },
    ]);
    expect(res.statusCode).toBe(415);
    // It says that the others were not uploaded either.
    expect(res.json().title).toBe('The file “virus.docx” is of a type that is not accepted, so none of the 3 files were uploaded. Choose them again without it.');
    expect(await count()).toBe(rowsBefore);
    expect(storedFiles(t.dataDir).length).toBe(diskBefore);
    expect(fs.readdirSync(path.join(t.dataDir, 'files', '.incoming'))).toEqual([]);
  });

  it('recognises office compound files and media by their structure', async () => {
    const ok = await upload([
      { name: 'lease.doc', data: compound(['WordDocument', '1Table']) },
      { name: 'prices.xls', data: compound(['Workbook']) },
      { name: 'tour.mp4', data: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\x00\x00\x02\x00isommp41', 'latin1'), Buffer.alloc(64)]) },
      { name: 'call.mp3', data: Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(64)]) },
      { name: 'clip.webm', data: Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84]), Buffer.from('webm'), Buffer.alloc(32)]) },
      { name: 'memo.wav', data: Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(32)]) },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().map((f: { mime: string }) => f.mime)).toEqual([
      'application/msword',
      'application/vnd.ms-excel',
      'video/mp4',
      'audio/mpeg',
      'video/webm',
      'audio/wav',
    ]);
    // an installer is a compound file too, but not an office document
    const msi = await upload([{ name: 'report.doc', data: compound(['\u4840\u3f3f\u4177', 'SummaryInformation']) }]);
    expect(msi.statusCode).toBe(415);
  });

  it('keeps Greek and Cyrillic file names', async () => {
    const res = await upload([
      { name: 'Συμβόλαιο πώλησης.pdf', data: PDF },
      { name: 'Договор аренды.txt', data: TEXT },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((f: { userName: string }) => f.userName)).toEqual(['Συμβόλαιο πώλησης.pdf', 'Договор аренды.txt']);
  });

  it('keeps a name\'s double quotes as the browser sends them (%22), without line breaks', async () => {
    const res = await upload([{ name: 'Συμβόλαιο %22τελικό%22.pdf', data: PDF }, { name: 'notes%0D%0Aline.txt', data: TEXT }]);
    expect(res.statusCode).toBe(200);
    const [deed, notes] = res.json() as { id: number; userName: string }[];
    expect([deed!.userName, notes!.userName]).toEqual(['Συμβόλαιο "τελικό".pdf', 'notesline.txt']);
    const opened = await staff.get(`/api/files/${deed!.id}`);
    expect(opened.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Συμβόλαιο "τελικό".pdf')}`);
  });

  it('keeps no folders and no direction overrides of a name: what is stored and what a download offers', async () => {
    // "contract\u202Efdp.exe" shows as "contractexe.pdf" in a right-to-left override.
    const res = await upload([{ name: '..\\..\\Windows\\contract\u202Efdp.exe.pdf', data: PDF }, { name: '../../etc/\u2067notes\u2069.txt', data: TEXT }]);
    expect(res.statusCode, res.body).toBe(200);
    const [pdf, txt] = res.json() as { id: number; userName: string }[];
    expect([pdf!.userName, txt!.userName]).toEqual(['contractfdp.exe.pdf', 'notes.txt']);
    const opened = await staff.get(`/api/files/${txt!.id}`);
    expect(opened.headers['content-disposition']).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    expect(opened.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(opened.headers['x-content-type-options']).toBe('nosniff');
  });

  it('an empty request is refused', async () => {
    const res = await upload([]);
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toBe('No file was received. Please choose the files again.');
  });

  it('needs a signed-in staff member', async () => {
    const anon = await upload([{ name: 'a.png', data: PNG }], t.client());
    expect(anon.statusCode).toBe(401);
    const client = await t.user({ roles: ['clientPayments'] });
    const denied = await upload([{ name: 'a.png', data: PNG }], client);
    expect(denied.statusCode).toBe(403);
  });
});

describe('size limit', () => {
  it('a file over UPLOAD_MAX_MB is refused with 413 and nothing is stored', async () => {
    const small = await createTestApp({ UPLOAD_MAX_MB: '1' });
    const u = await small.user();
    const big = Buffer.concat([PDF, Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    const res = await upload(
      [
        { name: 'ok.png', data: PNG },
        { name: 'Κάτοψη.pdf', data: big },
      ],
      u,
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().title).toBe('The file “Κάτοψη.pdf” is larger than the allowed 1 MB.');
    expect(await small.db.select().from(files)).toEqual([]);
    expect(storedFiles(small.dataDir)).toEqual([]);
    // under the limit is fine
    const res2 = await upload([{ name: 'ok.pdf', data: Buffer.concat([PDF, Buffer.alloc(512 * 1024, 0x20)]) }], u);
    expect(res2.statusCode).toBe(200);
  });
});

describe('request and per-person limits', () => {
  it('bounds one request in bytes and in files, and what one person can leave unattached; unattached uploads go after UPLOAD_UNATTACHED_HOURS', async () => {
    const lim = await createTestApp({ UPLOAD_MAX_MB: '1', UPLOAD_REQUEST_MAX_MB: '2', UPLOAD_MAX_FILES: '3', UPLOAD_PENDING_MAX_MB: '3', UPLOAD_UNATTACHED_HOURS: '2' });
    const u = await lim.user();
    const send = (parts: Part[], lang = 'en') => upload(parts, u, { lang });
    const pdf = (kb: number) => Buffer.concat([PDF, Buffer.alloc(kb * 1024, 0x20)]);
    // Three files just under 1 MB each: 2.7 MB in one request is over the request's 2 MB.
    const tooMuch = await send([1, 2, 3].map((i) => ({ name: `plan-${i}.pdf`, data: pdf(900) })), 'el');
    expect(tooMuch.statusCode).toBe(413);
    expect(tooMuch.json().title).toBe('Μια αποστολή μπορεί να έχει συνολικά έως 2 MB. Ανεβάστε τα αρχεία σε μικρότερες ομάδες.');
    expect(await lim.db.select().from(files)).toEqual([]);
    expect(storedFiles(lim.dataDir)).toEqual([]);
    const tooMany = await send([1, 2, 3, 4].map((i) => ({ name: `p${i}.png`, data: PNG })));
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().title).toBe('You can upload at most 3 files at once.');
    // Unattached uploads add up per person: 1.8 + 0.9 MB pass, the next 0.9 MB is over 3 MB.
    expect((await send([{ name: 'a.pdf', data: pdf(900) }, { name: 'b.pdf', data: pdf(900) }])).statusCode).toBe(200);
    expect((await send([{ name: 'c.pdf', data: pdf(900) }])).statusCode).toBe(200);
    const over = await send([{ name: 'd.pdf', data: pdf(900) }]);
    expect(over.statusCode).toBe(413);
    expect(over.json().code).toBe('files.pendingQuota');
    // Another person is not held up by it.
    const other = await lim.user();
    expect((await upload([{ name: 'e.pdf', data: pdf(900) }], other)).statusCode).toBe(200);
    // Two hours later the unattached ones are gone, rows and bytes, and the quota is free again.
    await lim.db.update(files).set({ createdOn: new Date(Date.now() - 2 * 3600 * 1000 - 60000) });
    expect((await send([{ name: 'f.png', data: PNG }])).statusCode).toBe(200);
    // The purge runs after the upload's answer: what is left once it has.
    await vi.waitFor(
      async () => {
        const left = await lim.db.select({ userName: files.userName }).from(files);
        expect(left.map((r) => r.userName)).toEqual(['f.png']);
        // f.png, its thumbnail and its screen-size copy
        expect(storedFiles(lim.dataDir)).toHaveLength(3);
      },
      { timeout: 5000, interval: 25 },
    );
  });
});

describe('what one person may leave unattached, under load and after a deletion', () => {
  it('uploads sent side by side cannot together pass the limit', async () => {
    const lim = await createTestApp({ UPLOAD_MAX_MB: '2', UPLOAD_PENDING_MAX_MB: '3' });
    const u = await lim.user();
    const pdf = Buffer.concat([PDF, Buffer.alloc(900 * 1024, 0x20)]);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => upload([{ name: `scan-${i}.pdf`, data: pdf }], u)),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    // 3 MB hold three files of 0.9 MB: the others are refused, whatever their order.
    expect(codes).toEqual([200, 200, 200, 413, 413, 413]);
    const kept = await lim.db.select().from(files);
    expect(kept).toHaveLength(3);
    // Nothing refused was left on disk: three originals.
    expect(storedFiles(lim.dataDir)).toHaveLength(3);
  });

  it("a deleted record's files count against no one, cannot be attached again, and go at the next purge", async () => {
    const lim = await createTestApp({ UPLOAD_MAX_MB: '2', UPLOAD_PENDING_MAX_MB: '2' });
    const u = await lim.user({ roles: ['admin'] });
    const send = (name: string) => upload([{ name, data: Buffer.concat([PDF, Buffer.alloc(900 * 1024, 0x20)]) }], u, { lang: 'el' });
    const up = [(await send('deed.pdf')).json()[0], (await send('plan.pdf')).json()[0]] as { id: number }[];
    const [{ id: account }] = await lim.db.insert(accounts).values({ lastName: 'Deletedou', isClient: true }).returning({ id: accounts.id });
    const attached = await u.post('/api/files/setParent', { entityType: LinkKind.Account, id: account, fileNames: up.map((f) => String(f.id)) });
    expect(attached.statusCode, attached.body).toBe(200);
    expect((await u.del(`/api/account/${account}`)).statusCode).toBe(200);
    const let_go = await lim.db.select().from(files).where(inArray(files.id, up.map((f) => f.id)));
    expect(let_go.every((f) => f.parentType === null && f.detachedOn !== null)).toBe(true);
    // Nobody attaches them to another record (before an upload's purge takes them).
    const [{ id: other }] = await lim.db.insert(accounts).values({ lastName: 'Otherou', isClient: true }).returning({ id: accounts.id });
    const again = await u.post('/api/files/setParent', { entityType: LinkKind.Account, id: other, fileNames: [String(up[0]!.id)] });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('files.unknownFile');
    // Nor through a record's own save: the account's new files, the activity's added files.
    const otherView = await u.get(`/api/account/view/${other}`);
    await u.post('/api/account/update', { id: other, version: otherView.json().version, filesNew: String(up[0]!.id) });
    const activity = (await u.post('/api/activity/add', { entityType: LinkKind.Account, id: other })).json() as { id: number; version: number };
    const onActivity = await u.post('/api/activity/update', { id: activity.id, version: activity.version, addedFiles: String(up[1]!.id) });
    expect(onActivity.statusCode).toBe(400);
    const still = await lim.db.select().from(files).where(inArray(files.id, up.map((f) => f.id)));
    expect(still.map((f) => [f.parentType, f.detachedOn !== null])).toEqual([
      [null, true],
      [null, true],
    ]);
    // Two new uploads of 0.9 MB fit in the 2 MB: the deleted account's 1.8 MB are not pending.
    expect((await send('new-1.pdf')).statusCode).toBe(200);
    const second = await send('new-2.pdf');
    expect(second.statusCode, second.body).toBe(200);
    // The purge takes them at once, not hours later; the new uploads stay.
    while ((await purgeOrphanFiles(lim.app)) > 0);
    const left = await lim.db.select({ userName: files.userName }).from(files);
    expect(left.map((f) => f.userName).sort()).toEqual(['new-1.pdf', 'new-2.pdf']);
    const [log] = await lim.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'), eq(actionLog.entityId, up[0]!.id), eq(actionLog.action, 'Delete')));
    expect(log!.data).toMatchObject({ reason: 'record deleted' });
  });
});

describe('open (GET /api/files/{systemName})', () => {
  it('streams the file with its name (RFC 5987 for Greek), nosniff and private caching', async () => {
    const [pdf] = (await upload([{ name: 'Συμβόλαιο πώλησης (τελικό).pdf', data: PDF }])).json();
    const res = await staff.get(`/api/files/${pdf.systemName}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="_________ _______ (______).pdf"; filename*=UTF-8''${encodeURIComponent('Συμβόλαιο πώλησης ')}%28${encodeURIComponent('τελικό')}%29.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toContain('private');
    expect(Number(res.headers['content-length'])).toBe(PDF.length);
  });

  it('opens at an address that ends in its own name, by the session\'s file cookie, for the same callers only', async () => {
    const name = 'Договор аренды (Σπίτι) №2.pdf';
    const [pdf] = (await upload([{ name, data: PDF }])).json();
    const url = `/api/files/${pdf.systemName}/${encodeURIComponent(name)}`;
    // A link in a new tab sends no token: the session's file cookie opens it, with the file's own name.
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie: `crm_files=${staff.token}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(name).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`);
    // The name is not read: the stored name says which file; without a session, or for a payments client, nothing.
    expect((await staff.get(`/api/files/${pdf.systemName}/other.pdf`)).rawPayload.equals(PDF)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const client = await t.user({ roles: ['clientPayments'] });
    expect((await t.app.inject({ method: 'GET', url, headers: { cookie: `crm_files=${client.token}` } })).statusCode).toBe(403);
    expect((await staff.get(`/api/files/nothing-here.pdf/${encodeURIComponent(name)}`)).statusCode).toBe(404);
  });

  it('images open by numeric id too; documents, text and XML download as attachments', async () => {
    const [png, txt, xml, docx] = (
      await upload([
        { name: 'room.png', data: PNG },
        { name: 'notes.txt', data: TEXT },
        { name: 'feed.xml', data: XML },
        { name: 'offer.docx', data: DOCX },
      ])
    ).json();
    const img = await staff.get(`/api/files/${png.id}`);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['content-disposition']).toMatch(/^inline; filename="room.png"/);

    const text = await staff.get(`/api/files/${txt.systemName}`);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.headers['content-disposition']).toMatch(/^attachment; filename="notes.txt"/);
    expect(text.body).toBe(TEXT.toString('utf8'));

    const x = await staff.get(`/api/files/${xml.systemName}`);
    expect(x.headers['content-type']).toBe('application/octet-stream');
    expect(x.headers['content-disposition']).toMatch(/^attachment;/);

    const d = await staff.get(`/api/files/${docx.systemName}`);
    expect(d.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(d.headers['content-disposition']).toMatch(/^attachment; filename="offer.docx"/);
  });

  it('needs a sign-in; an unknown file is 404', async () => {
    const [png] = (await upload([{ name: 'a.png', data: PNG }])).json();
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${png.systemName}` })).statusCode).toBe(401);
    const missing = await staff.get('/api/files/0123456789abcdef0123456789abcdef.png');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().title).toBe('The file was not found. It may have been deleted.');
  });

  it('a deleted file opened in a tab: a page in the language of the screens, status 404; the API keeps its JSON answer', async () => {
    const name = 'Κάτοψη.pdf';
    const [pdf] = (await upload([{ name, data: PDF }])).json();
    const url = `/api/files/${pdf.systemName}/${encodeURIComponent(name)}`;
    expect((await staff.del(`/api/files/${pdf.systemName}`)).statusCode).toBe(200);
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const tab = (language: string | null, acceptLanguage = 'en-US,en;q=0.9') =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { accept: browser, 'accept-language': acceptLanguage, cookie: `crm_files=${staff.token}${language ? `; language=${language}` : ''}` },
      });

    const el = await tab('el');
    expect(el.statusCode).toBe(404);
    expect(el.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(el.body).toContain('<html lang="el">');
    expect(el.body).toContain('<h1>Το αρχείο δεν βρέθηκε</h1>');
    expect(el.body).toContain('Το αρχείο διαγράφηκε ή μετακινήθηκε');
    expect(el.body).toContain('<a href="/CRM">Επιστροφή στο CRM</a>');

    const ru = await tab('ru');
    expect(ru.statusCode).toBe(404);
    expect(ru.body).toContain('<h1>Файл не найден</h1>');
    expect(ru.body).toContain('<a href="/CRM">Вернуться в CRM</a>');
    const en = await tab('en-UK', 'el-GR,el;q=0.9');
    expect(en.body).toContain('<h1>File not found</h1>');
    expect(en.body).toContain('This file was deleted or moved');
    expect(en.body).toContain('<a href="/CRM">Back to the CRM</a>');
    // No language chosen yet: the browser's.
    expect((await tab(null, 'ru-RU,ru;q=0.9')).body).toContain('<h1>Файл не найден</h1>');
    // A language cookie that is not ours, even one that is not valid percent-encoding: the browser's language, not a server error.
    for (const odd of ['%E0%A4%A', 'de', '<b>el</b>']) {
      const res = await tab(odd, 'ru-RU,ru;q=0.9');
      expect(res.statusCode, odd).toBe(404);
      expect(res.body, odd).toContain('<h1>Файл не найден</h1>');
    }

    // A file whose content is lost is the same to the reader.
    const [png] = (await upload([{ name: 'lost.png', data: PNG }])).json();
    fs.rmSync(storedFiles(t.dataDir).find((p) => p.endsWith(png.systemName))!);
    const lost = await t.app.inject({ method: 'GET', url: `/api/files/${png.systemName}/lost.png`, headers: { accept: browser, cookie: `crm_files=${staff.token}; language=el` } });
    expect(lost.statusCode).toBe(404);
    expect(lost.body).toContain('<h1>Το αρχείο δεν βρέθηκε</h1>');

    // The API's callers asking for JSON (and those asking for nothing in particular) keep the problem details.
    for (const accept of ['application/json', 'application/json, text/plain, */*', undefined]) {
      const api = await staff.get(url, { lang: 'el', headers: accept ? { accept } : {} });
      expect(api.statusCode).toBe(404);
      expect(api.headers['content-type']).toContain('application/problem+json');
      expect(api.json()).toMatchObject({ status: 404, code: 'files.notFound', title: 'Το αρχείο δεν βρέθηκε. Μπορεί να έχει διαγραφεί.' });
    }
    // Nothing was stored by asking.
    expect(await t.db.select().from(files).where(eq(files.id, pdf.id))).toEqual([]);
  });

  it('a link opened in a tab that is signed out, or by a reader who may not see the record: a page saying so; the API keeps its JSON', async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const name = 'Συμβόλαιο.pdf';
    const [pdf] = (await upload([{ name, data: PDF }])).json();
    const url = `/api/files/${pdf.systemName}/${encodeURIComponent(name)}`;
    const tab = (cookie: string, acceptLanguage = 'en-US,en;q=0.9') =>
      t.app.inject({ method: 'GET', url, headers: { accept: browser, 'accept-language': acceptLanguage, ...(cookie ? { cookie } : {}) } });

    // Signed out (no file cookie, or the cookie of an ended session): 401, with the way to sign in.
    const el = await tab('language=el');
    expect(el.statusCode).toBe(401);
    expect(el.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(el.headers['cache-control']).toBe('no-store');
    expect(el.body).toContain('<html lang="el">');
    expect(el.body).toContain('<h1>Συνδεθείτε για να ανοίξετε το αρχείο</h1>');
    // The way to sign in carries the file's address (path and query) back, encoded as one value.
    const back = `/login?returnUrl=${encodeURIComponent(url)}`;
    expect(back).toBe(`/login?returnUrl=%2Fapi%2Ffiles%2F${pdf.systemName}%2F%25CE%25A3%25CF%2585%25CE%25BC%25CE%25B2%25CF%258C%25CE%25BB%25CE%25B1%25CE%25B9%25CE%25BF.pdf`);
    expect(el.body).toContain(`<a href="${back}">Σύνδεση</a>`);
    expect(el.body).not.toContain('%PDF');
    const ended = await tab('crm_files=' + 'x'.repeat(43) + '; language=en-UK', 'el-GR,el;q=0.9');
    expect(ended.statusCode).toBe(401);
    expect(ended.body).toContain('<h1>Sign in to open this file</h1>');
    expect(ended.body).toContain('Sign in and the file will open.');
    expect(ended.body).toContain(`<a href="${back}">Sign in</a>`);
    // A query goes back too, as one encoded value: what it holds never becomes markup of the page.
    const sized = await t.app.inject({ method: 'GET', url: `${url}?size=original&x="><b>'`, headers: { accept: browser } });
    expect(sized.statusCode).toBe(401);
    expect(sized.body).not.toContain('<b>');
    const href = /<a href="([^"]*)">Sign in<\/a>/.exec(sized.body)?.[1];
    expect(href).toBe(`/login?returnUrl=${encodeURIComponent(url)}%3Fsize%3Doriginal%26x%3D%2522%253E%253Cb%253E%2527`);
    expect(new URL(href!, 'http://crm.test').searchParams.get('returnUrl')).toBe(`${url}?size=original&x=%22%3E%3Cb%3E%27`);
    // A quote the browser leaves as it is in the address (a name such as it's.pdf) is escaped in the page.
    const quoted = await t.app.inject({ method: 'GET', url: `/api/files/${pdf.systemName}/it's.pdf`, headers: { accept: browser } });
    expect(quoted.statusCode).toBe(401);
    expect(quoted.body).toContain(`<a href="/login?returnUrl=%2Fapi%2Ffiles%2F${pdf.systemName}%2Fit&#39;s.pdf">Sign in</a>`);
    expect((await tab('', 'ru-RU,ru;q=0.9')).body).toContain('<h1>Войдите, чтобы открыть файл</h1>');

    // Signed in, but the file belongs to a record hidden from the reader (an activity of a reservation,
    // for a branch user), or the reader is not staff at all: 403, with the way back.
    const [activity] = await t.db.insert(activities).values({ description: 'Reservation call' }).returning({ id: activities.id });
    await t.db.insert(activityLinks).values({ activityId: activity!.id, entity: LinkKind.Reservation, entityId: 1 });
    await t.db.update(files).set({ parentType: LinkKind.Activity, parentId: activity!.id }).where(eq(files.id, pdf.id));
    const branchUser = await t.user({ roles: ['employee'], branchId: 1 });
    const deniedEl = await tab(`crm_files=${branchUser.token}; language=el`);
    expect(deniedEl.statusCode).toBe(403);
    expect(deniedEl.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(deniedEl.headers['cache-control']).toBe('no-store');
    expect(deniedEl.body).toContain('<h1>Δεν επιτρέπεται να ανοίξετε αυτό το αρχείο</h1>');
    expect(deniedEl.body).toContain('<a href="/">Επιστροφή στο CRM</a>');
    expect(deniedEl.body).not.toContain('%PDF');
    const client = await t.user({ roles: ['clientPayments'] });
    const deniedEn = await tab(`crm_files=${client.token}; language=en-UK`, 'el-GR,el;q=0.9');
    expect(deniedEn.statusCode).toBe(403);
    expect(deniedEn.body).toContain('<h1>You may not open this file</h1>');
    expect(deniedEn.body).toContain('<a href="/">Back to the CRM</a>');
    // Staff of the office still open it.
    expect((await tab(`crm_files=${staff.token}`)).rawPayload.equals(PDF)).toBe(true);

    // The API's callers keep the problem details.
    for (const accept of ['application/json', 'application/json, text/plain, */*', undefined]) {
      const h = { 'accept-language': 'el', ...(accept ? { accept } : {}) };
      const out = await t.app.inject({ method: 'GET', url, headers: h });
      expect(out.statusCode).toBe(401);
      expect(out.headers['content-type']).toContain('application/problem+json');
      expect(out.json()).toMatchObject({ status: 401, code: 'errors.unauthorized' });
      const no = await branchUser.get(url, { headers: h });
      expect(no.statusCode).toBe(403);
      expect(no.headers['content-type']).toContain('application/problem+json');
      expect(no.json()).toMatchObject({ status: 403, code: 'errors.accessDenied', title: 'Δεν επιτρέπεται η πρόσβαση' });
    }
  });
});

describe('delete (DELETE /api/files/{systemName})', () => {
  it('removes the row and the stored file, and logs it; a second delete is 404', async () => {
    const [png] = (await upload([{ name: 'old.png', data: PNG }])).json();
    const onDisk = storedFiles(t.dataDir).find((p) => p.endsWith(png.systemName));
    expect(onDisk).toBeDefined();
    const res = await staff.del(`/api/files/${png.systemName}`);
    expect(res.statusCode).toBe(200);
    expect(fs.existsSync(onDisk!)).toBe(false);
    expect(await t.db.select().from(files).where(eq(files.id, png.id))).toEqual([]);
    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'), eq(actionLog.entityId, png.id)));
    expect(logged.map((l) => l.action).sort()).toEqual(['Create', 'Delete']);
    const again = await staff.del(`/api/files/${png.systemName}`);
    expect(again.statusCode).toBe(404);
    expect((await staff.get(`/api/files/${png.systemName}`)).statusCode).toBe(404);
  });

  it("an activity's attachments go with it: deleted with the activity at once, and let go for the purge when the lead holding it is deleted", async () => {
    const accountId = await newAccount('Attachmentou');
    const activityWith = async (entityType: number, id: number, name: string) => {
      const added = (await staff.post('/api/activity/add', { entityType, id })).json();
      const up = (await upload([{ name, data: PNG }, { name: 'passport.pdf', data: PDF }])).json() as { id: number; systemName: string }[];
      const saved = await staff.post('/api/activity/update', { id: added.id, version: added.version, description: 'Scans', addedFiles: up.map((f) => f.id).join(',') });
      expect(saved.statusCode, saved.body).toBe(200);
      const rows = await t.db.select().from(files).where(and(eq(files.parentType, LinkKind.Activity), eq(files.parentId, added.id)));
      expect(rows).toHaveLength(2);
      const names = rows.flatMap((r) => [r.systemName, r.thumbName, r.webName]).filter((n): n is string => !!n);
      const onDisk = () => storedFiles(t.dataDir).filter((p) => names.some((n) => p.endsWith(n)));
      expect(onDisk()).toHaveLength(names.length);
      return { activityId: added.id as number, fileIds: up.map((f) => f.id), onDisk };
    };

    // Deleting the activity deletes its files' rows and stored content (the photo's copies too).
    const direct = await activityWith(LinkKind.Account, accountId, 'id-card.png');
    expect((await staff.del(`/api/activity/${direct.activityId}`)).statusCode).toBe(200);
    expect(direct.onDisk()).toEqual([]);
    expect(await t.db.select().from(files).where(inArray(files.id, direct.fileIds))).toEqual([]);

    // Deleting a lead deletes the activities only it held; their files have no parent any more,
    // and the purge of unattached files removes them (here made old enough at once).
    const lead = (await staff.post('/api/lead/add', { accountId })).json();
    const onLead = await activityWith(LinkKind.Demand, lead.id, 'contract.png');
    expect((await staff.del(`/api/lead/${lead.id}`)).statusCode).toBe(200);
    const left = await t.db.select().from(files).where(inArray(files.id, onLead.fileIds));
    expect(left.map((f) => [f.parentType, f.parentId])).toEqual([
      [null, null],
      [null, null],
    ]);
    await t.db.update(files).set({ createdOn: new Date(Date.now() - 30 * 24 * 3600 * 1000) }).where(inArray(files.id, onLead.fileIds));
    while ((await purgeOrphanFiles(t.app)) > 0);
    expect(onLead.onDisk()).toEqual([]);
    expect(await t.db.select().from(files).where(inArray(files.id, onLead.fileIds))).toEqual([]);
  });

  it('needs a sign-in', async () => {
    const [png] = (await upload([{ name: 'keep.png', data: PNG }])).json();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/files/${png.systemName}` })).statusCode).toBe(401);
    expect((await t.db.select().from(files).where(eq(files.id, png.id))).length).toBe(1);
  });
});

describe('attach (setParent), list and reorder', () => {
  it('attaches uploaded files to an account and lists them in order', async () => {
    const accountId = await newAccount();
    const up = (await upload([{ name: 'a.png', data: PNG }, { name: 'b.pdf', data: PDF }, { name: 'c.txt', data: TEXT }])).json();
    const res = await staff.post('/api/files/setParent', { entityType: LinkKind.Account, id: accountId, fileNames: [up[0].systemName, up[1].id], type: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((f: { userName: string }) => f.userName)).toEqual(['a.png', 'b.pdf']);
    // the comma-joined form (filesNew) works too; a file already on this account is left in place
    const again = await staff.post('/api/files/setParent', { entityType: LinkKind.Account, id: accountId, fileNames: `${up[2].id},${up[0].id}` });
    expect(again.statusCode).toBe(200);
    expect(again.json().attached).toEqual([up[2].id]);

    const list = await staff.get(`/api/files?parentType=2&parentId=${accountId}`);
    expect(list.statusCode).toBe(200);
    const items = list.json().items as { userName: string; createdBy: string; createdOn: string; sortOrder: number }[];
    expect(items.map((f) => f.userName)).toEqual(['a.png', 'b.pdf', 'c.txt']);
    expect(items[0]!.createdBy).toBe(staff.email);
    expect(items[0]!.createdOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'), eq(actionLog.entityId, up[2].id), eq(actionLog.action, 'Update')));
    expect(logged).toHaveLength(1);

    // reorder: the given files first, the rest after
    const re = await staff.post('/api/files/reorder', { ids: [up[2].id, up[0].id] });
    expect(re.statusCode).toBe(200);
    expect(re.json().items.map((f: { userName: string }) => f.userName)).toEqual(['c.txt', 'a.png', 'b.pdf']);
    const list2 = await staff.get(`/api/files?parentType=2&parentId=${accountId}`);
    expect(list2.json().items.map((f: { userName: string }) => f.userName)).toEqual(['c.txt', 'a.png', 'b.pdf']);
  });

  it('refuses files of another record, unknown files and unknown records, changing nothing', async () => {
    const first = await newAccount('First');
    const second = await newAccount('Second');
    const [mine, other] = (await upload([{ name: 'mine.png', data: PNG }, { name: 'free.pdf', data: PDF }])).json();
    await staff.post('/api/files/setParent', { entityType: 2, id: first, fileNames: [mine.id] });

    const elsewhere = await staff.post('/api/files/setParent', { entityType: 2, id: second, fileNames: [other.id, mine.id] });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().title).toBe('The file “mine.png” is already attached to another record.');
    const [row] = await t.db.select().from(files).where(eq(files.id, other.id));
    expect(row!.parentId).toBeNull(); // the whole call was refused

    const unknownFile = await staff.post('/api/files/setParent', { entityType: 2, id: second, fileNames: ['nope.png'] });
    expect(unknownFile.statusCode).toBe(400);
    const unknownRecord = await staff.post('/api/files/setParent', { entityType: 2, id: 999999, fileNames: [other.id] });
    expect(unknownRecord.statusCode).toBe(404);
    const badKind = await staff.post('/api/files/setParent', { entityType: 10, id: second, fileNames: [other.id] });
    expect(badKind.statusCode).toBe(400);

    const mixed = await staff.post('/api/files/reorder', { ids: [mine.id, other.id] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().title).toBe('Only files of the same record can be reordered together.');
  });

  it('list, attach and reorder need a sign-in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/files?parentType=2&parentId=1' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/files/setParent', payload: { entityType: 2, id: 1, fileNames: [1] } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/files/reorder', payload: { ids: [1] } })).statusCode).toBe(401);
    // admins are staff too
    expect((await admin.get('/api/files?parentType=2&parentId=1')).statusCode).toBe(200);
  });
});

describe('POST /api/files/reorder as the spec sends it', () => {
  it('takes a plain list of ids as well as { ids }', async () => {
    const accountId = await newAccount();
    const up = (await upload([{ name: 'a.pdf', data: PDF }, { name: 'b.pdf', data: PDF }])).json() as { id: number; systemName: string }[];
    const attach = await staff.post('/api/files/setParent', { entityType: LinkKind.Account, id: accountId, fileNames: up.map((f) => f.id) });
    expect(attach.statusCode, attach.body).toBe(200);
    const names = (res: { json: () => unknown }) => (res.json() as { items: { userName: string }[] }).items.map((f) => f.userName);
    const plain = await staff.post('/api/files/reorder', [up[1]!.id, up[0]!.id]);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(names(plain)).toEqual(['b.pdf', 'a.pdf']);
    const wrapped = await staff.post('/api/files/reorder', { ids: [up[0]!.id, up[1]!.id] });
    expect(names(wrapped)).toEqual(['a.pdf', 'b.pdf']);
    expect((await staff.post('/api/files/reorder', '"x"', { headers: { 'content-type': 'application/json' } })).statusCode).toBe(400);
  });
});
