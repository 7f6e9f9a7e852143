import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './harness.ts';
import { multipartForm } from './multipart.ts';
import { sendBody } from './wire.ts';
import { zip } from './zip.ts';

/**
 * No single request stops the server (decision 056): a body is refused as soon as it is known to be
 * refused (no sign-in, a wrong type, over its limit) and the connection closed rather than read to
 * its end; a spreadsheet is read in a worker, within bounds, while the server goes on answering.
 */
const MB = 1024 * 1024;
let small: TestApp;
let full: TestApp;
let smallUrl: string;
let fullUrl: string;
let staff: string;
let admin: string;

const urlOf = (t: TestApp) => `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;

beforeAll(async () => {
  // Small limits, so that crossing them is quick: 5 MB a file, 8 MB an upload.
  small = await createTestApp({ UPLOAD_MAX_MB: '5', UPLOAD_REQUEST_MAX_MB: '8' });
  await small.app.listen({ port: 0, host: '127.0.0.1' });
  smallUrl = urlOf(small);
  staff = (await small.user({ roles: ['employee'] })).token;
  // The shipped limits (50 MB a file), for the worst files an office administrator can upload.
  full = await createTestApp();
  await full.app.listen({ port: 0, host: '127.0.0.1' });
  fullUrl = urlOf(full);
  admin = (await full.user({ roles: ['admin'] })).token;
});
afterAll(async () => {
  await small.app.close();
  await full.app.close();
});

const json = { 'content-type': 'application/json' };

describe('a request that will be refused is refused before its body is read, and its connection closed', () => {
  it('an anonymous 500 MB upload: 401 after a few megabytes at most', async () => {
    const a = await sendBody(`${smallUrl}/api/files`, { total: 500 * MB, headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(a.status).toBe(401);
    expect(a.headers.connection).toBe('close');
    expect(a.closed).toBe(true);
    expect(a.taken).toBeLessThan(16 * MB);
  });

  it('an anonymous 500 MB JSON body: 401, the same', async () => {
    const a = await sendBody(`${smallUrl}/api/account/update`, { total: 500 * MB, headers: json });
    expect(a.status).toBe(401);
    expect(a.headers.connection).toBe('close');
    expect(a.closed).toBe(true);
    expect(a.taken).toBeLessThan(16 * MB);
  });

  it('a signed-in 500 MB body (sent in chunks) of a type the call does not take: 415, the same', async () => {
    const a = await sendBody(`${smallUrl}/api/account/update`, { total: 500 * MB, contentLength: false, headers: { ...bearer(staff), 'content-type': 'application/xml' } });
    expect(a.status).toBe(415);
    expect(a.headers.connection).toBe('close');
    expect(a.closed).toBe(true);
    expect(a.taken).toBeLessThan(16 * MB);
  });

  it('a 2 GB upload that says its size: 413 before any of it is read, in the reader’s language', async () => {
    const a = await sendBody(`${smallUrl}/api/files`, { total: 2048 * MB, headers: { ...bearer(staff), 'content-type': 'multipart/form-data; boundary=x', 'accept-language': 'el' } });
    expect(a.status).toBe(413);
    expect(JSON.parse(a.body).title).toBe('Το αίτημα υπερβαίνει τα 9 MB που δέχεται αυτή η λειτουργία.');
    expect(a.headers.connection).toBe('close');
    expect(a.closed).toBe(true);
    expect(a.sent).toBeLessThan(16 * MB);
  });

  it('a 2 GB upload sent in chunks (its size unknown): 413 as soon as the file passes its 5 MB', async () => {
    const head = Buffer.from('--x\r\nContent-Disposition: form-data; name="files"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n');
    const a = await sendBody(`${smallUrl}/api/files`, { total: 2048 * MB, head, contentLength: false, headers: { ...bearer(staff), 'content-type': 'multipart/form-data; boundary=x' } });
    expect(a.status).toBe(413);
    expect(JSON.parse(a.body).code).toBe('files.tooLarge');
    expect(a.headers.connection).toBe('close');
    expect(a.closed).toBe(true);
    expect(a.taken).toBeLessThan(5 * MB + 16 * MB);
    // Nothing of it is left behind.
    expect((await small.pool.query('select count(*)::int as n from files')).rows[0].n).toBe(0);
  });

  it('a JSON body over 2 MB sent in chunks: 413 once it passes 2 MB', async () => {
    const a = await sendBody(`${smallUrl}/api/account/update`, { total: 500 * MB, contentLength: false, head: Buffer.from('{"x":"'), headers: { ...bearer(staff), ...json } });
    expect(a.status).toBe(413);
    expect(a.headers.connection).toBe('close');
    expect(a.closed).toBe(true);
    expect(a.taken).toBeLessThan(2 * MB + 16 * MB);
  });

  it('after all that the server answers as before, and a body within its limits keeps its connection', async () => {
    const res = await fetch(`${smallUrl}/api/health`);
    expect(res.status).toBe(200);
    const form = multipartForm([{ field: 'files', name: 'note.pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n'), type: 'application/pdf' }]);
    const a = await sendBody(`${smallUrl}/api/files`, { total: form.payload.length, head: form.payload, headers: { ...bearer(staff), ...form.headers } });
    expect(a.status).toBe(200);
    expect(a.headers.connection).not.toBe('close');
  });
});

/** Uploads a spreadsheet to the import over a real connection while another client reads the health check, one request after another. */
async function importBesideHealth(name: string, data: Buffer) {
  const form = multipartForm([
    { field: 'kind', value: 'owners' },
    { field: 'files', name, data },
  ]);
  const health: { status: number; at: number }[] = [];
  let answered = Number.POSITIVE_INFINITY;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const res = await fetch(`${fullUrl}/api/health`);
      health.push({ status: res.status, at: performance.now() });
      await res.arrayBuffer();
    }
  })();
  const sent = performance.now();
  const res = await fetch(`${fullUrl}/api/import/upload`, { method: 'POST', headers: { ...bearer(admin), ...form.headers, 'accept-language': 'en' }, body: form.payload });
  answered = performance.now();
  const body = (await res.json()) as { code?: string; rowCount?: number };
  polling = false;
  await poll;
  return { status: res.status, body, health, during: health.filter((h) => h.at > sent && h.at < answered) };
}

describe('the worst spreadsheets an administrator can upload: a clear refusal, with the server answering all along', () => {
  it('a CSV of 130,000 short rows (under a megabyte) is refused for its rows, not a 500', async () => {
    const csv = Buffer.from(`lastName;phone\n${'Παπαδόπουλος;2310123456\n'.repeat(130_000)}`);
    const { status, body } = await importBesideHealth('owners.csv', csv);
    expect(status).toBe(400);
    expect(body.code).toBe('imports.tooManyRows');
  });

  it('a 46 MB CSV is read only to its 20,001st row and refused; the health check is answered while it is read', async () => {
    const row = `Παπαδόπουλος;Γεώργιος;2310123456;${'x'.repeat(300)}\n`;
    const csv = Buffer.from(`lastName;firstName;phone;notes\n${row.repeat(Math.ceil((46 * MB) / Buffer.byteLength(row)))}`);
    expect(csv.length).toBeGreaterThan(46 * MB);
    const { status, body, health, during } = await importBesideHealth('owners.csv', csv);
    expect(status).toBe(400);
    expect(body.code).toBe('imports.tooManyRows');
    expect(health.every((h) => h.status === 200)).toBe(true);
    expect(during.length).toBeGreaterThan(0);
  });

  it('an 11 MB workbook that unpacks to 198 MB is refused for its size unpacked, with the server answering', async () => {
    const cell = '<c t="inlineStr"><is><t>Παπαδόπουλος</t></is></c>';
    const row = `<row>${cell.repeat(40)}</row>`;
    const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${row.repeat(Math.floor((198 * MB) / Buffer.byteLength(row)))}</sheetData></worksheet>`;
    expect(Buffer.byteLength(sheet)).toBeGreaterThan(197 * MB);
    expect(Buffer.byteLength(sheet)).toBeLessThan(199 * MB);
    const xlsx = zip([
      { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
      { name: 'xl/worksheets/sheet1.xml', data: sheet, deflate: true },
    ]);
    const { status, body, health, during } = await importBesideHealth('owners.xlsx', xlsx);
    expect(status).toBe(413);
    expect(body.code).toBe('imports.unpackedTooLarge');
    expect(health.every((h) => h.status === 200)).toBe(true);
    expect(during.length).toBeGreaterThan(0);
  });
});
