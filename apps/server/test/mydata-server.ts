import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

/**
 * A local stand-in for AADE's myDATA REST API (SendInvoices), started by a test on a free port: it
 * checks the aade-user-id and ocp-apim-subscription-key headers, validates each body it receives
 * against AADE's InvoicesDoc XSD (the copies in modules/invoices/mydata-xsd), and answers in
 * myDATA's documented ResponseDoc format (response-v1.0.12.xsd, against which each answer is
 * validated too): a MARK and UID, an error list, or a plain HTTP 500, as the test plans; or it
 * registers the document and cuts the connection before answering (a lost answer). It answers
 * RequestTransmittedDocs with the documents it registered, as AADE's RequestedDoc.
 */
const XSD_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/modules/invoices/mydata-xsd');
const xsds = fs
  .readdirSync(XSD_DIR)
  .filter((f) => f.endsWith('.xsd'))
  .map((fileName) => ({ fileName, contents: fs.readFileSync(path.join(XSD_DIR, fileName), 'utf8') }));
const xsd = (name: string) => xsds.find((x) => x.fileName === name)!;

export async function validateWith(schemaFile: string, xml: string) {
  const main = xsd(schemaFile);
  const res = await validateXML({ xml: { fileName: 'body.xml', contents: xml }, schema: main, preload: xsds.filter((x) => x !== main) });
  return { valid: res.valid, errors: res.errors.map((e) => e.message) };
}

/** What the next SendInvoices gets: a MARK, an error, a bare HTTP status, or `drop`: registered (a MARK given) but the connection cut before the answer. */
export type Planned = { kind: 'success' } | { kind: 'error'; code: string; message: string } | { kind: 'status'; status: number } | { kind: 'drop' };
export type Received = { path: string; userId: string | undefined; key: string | undefined; body: string; valid: boolean; errors: string[]; answered: string };
/** A RequestTransmittedDocs asked: its query and how many documents the answer listed. */
export type Queried = { query: Record<string, string>; listed: number; answered: string };
/** A document the stand-in registered (the part of InvoicesDoc between <invoice> and </invoice>, and what it gave it). */
type Registered = { mark: number; uid: string; authenticationCode: string; qrUrl: string; invoice: string; issueDate: string; invoiceType: string };

let marks = 400001000000000;

const pick = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? '';
const REQUESTED_NS = 'xmlns="http://www.aade.gr/myDATA/invoice/v1.0" xmlns:icls="https://www.aade.gr/myDATA/incomeClassificaton/v1.0"';

const responseDoc = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<ResponseDoc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><response><index>1</index>${inner}</response></ResponseDoc>`;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startMydataServer(credentials: { userId: string; key: string }, port = 0) {
  const plan: Planned[] = [];
  const received: Received[] = [];
  const queried: Queried[] = [];
  const registered: Registered[] = [];
  /** How many documents a RequestTransmittedDocs answer lists before its continuation token (AADE's pages are larger). */
  const paging = { pageSize: 2, stuck: false };

  /**
   * GET /RequestTransmittedDocs?mark=&dateFrom=&dateTo=&invType=&nextPartitionKey=&nextRowKey=: the
   * documents this user transmitted with a MARK above `mark` (required), in the date range
   * (dd/MM/yyyy) and of the type asked, as a RequestedDoc (validated against its XSD), a page at a
   * time with a continuationToken.
   */
  async function transmittedDocs(url: URL): Promise<{ status: number; text: string; listed: number }> {
    const q = Object.fromEntries(url.searchParams);
    if (!/^\d+$/.test(q.mark ?? '')) return { status: 400, text: 'mark is required', listed: 0 };
    const iso = (d: string | undefined) => (d ? `${d.slice(6, 10)}-${d.slice(3, 5)}-${d.slice(0, 2)}` : null);
    const from = iso(q.dateFrom);
    const to = iso(q.dateTo);
    const all = registered.filter(
      (r) => r.mark > Number(q.mark) && (!from || r.issueDate >= from) && (!to || r.issueDate <= to) && (!q.invType || r.invoiceType === q.invType),
    );
    const start = q.nextRowKey ? Number(q.nextRowKey) : 0;
    const page = all.slice(start, start + paging.pageSize);
    const more = start + paging.pageSize < all.length;
    // `stuck`: a broken listing whose token never moves on (page 0 again, with the same token).
    const token = paging.stuck
      ? '<continuationToken><nextPartitionKey>p0</nextPartitionKey><nextRowKey>0</nextRowKey></continuationToken>'
      : more ? `<continuationToken><nextPartitionKey>p${start + paging.pageSize}</nextPartitionKey><nextRowKey>${start + paging.pageSize}</nextRowKey></continuationToken>` : '';
    const invoices = page
      .map((r) => `<invoice><uid>${r.uid}</uid><mark>${r.mark}</mark><authenticationCode>${r.authenticationCode}</authenticationCode>${r.invoice}<qrCodeUrl>${escape(r.qrUrl)}</qrCodeUrl></invoice>`)
      .join('');
    const xml = `<?xml version="1.0" encoding="utf-8"?>\n<RequestedDoc ${REQUESTED_NS}>${token}<invoicesDoc>${invoices}</invoicesDoc></RequestedDoc>`;
    const own = await validateWith('requestedInvoicesDoc-v1.0.12.xsd', xml);
    if (!own.valid) throw new Error(`the stand-in's own answer is no RequestedDoc: ${own.errors.join('; ')}`);
    return { status: 200, text: xml, listed: page.length };
  }

  const origin = () => `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(parts).toString('utf8');
        const userId = req.headers['aade-user-id'] as string | undefined;
        const key = req.headers['ocp-apim-subscription-key'] as string | undefined;
        const url = new URL(req.url ?? '/', 'http://stand-in');
        if (req.method === 'GET' && url.pathname === '/RequestTransmittedDocs') {
          const entry: Queried = { query: Object.fromEntries(url.searchParams), listed: 0, answered: '' };
          queried.push(entry);
          if (userId !== credentials.userId || key !== credentials.key) {
            entry.answered = '401';
            res.writeHead(401, { 'content-type': 'application/json' });
            return res.end('{ "statusCode": 401, "message": "Access denied due to invalid subscription key." }');
          }
          const answer = await transmittedDocs(url);
          Object.assign(entry, { listed: answer.listed, answered: answer.status === 200 ? answer.text : String(answer.status) });
          res.writeHead(answer.status, { 'content-type': 'application/xml; charset=utf-8' });
          return res.end(answer.text);
        }
        const check = await validateWith('InvoicesDoc-v1.0.12.xsd', body);
        const entry: Received = { path: req.url ?? '', userId, key, body, valid: check.valid, errors: check.errors, answered: '' };
        received.push(entry);
        const send = async (status: number, text: string) => {
          entry.answered = `${status}`;
          res.writeHead(status, { 'content-type': 'application/xml; charset=utf-8' });
          res.end(text);
        };
        if (req.method !== 'POST' || req.url !== '/SendInvoices') return send(404, 'Resource not found');
        if (userId !== credentials.userId || key !== credentials.key) return send(401, '{ "statusCode": 401, "message": "Access denied due to invalid subscription key." }');
        const next = plan.shift() ?? { kind: 'success' };
        if (next.kind === 'status') return send(next.status, 'Internal server error');
        if (!check.valid) {
          return send(200, responseDoc(`<errors><error><message>${escape(check.errors.join('; '))}</message><code>101</code></error></errors><statusCode>XMLSyntaxError</statusCode>`));
        }
        const same = registered.find((r) => r.invoiceType === pick(body, 'invoiceType') && r.issueDate === pick(body, 'issueDate') && pick(r.invoice, 'series') === pick(body, 'series') && pick(r.invoice, 'aa') === pick(body, 'aa') && pick(r.invoice, 'vatNumber') === pick(body, 'vatNumber'));
        if (same && next.kind !== 'error') {
          // The stand-in's duplicate refusal (its code and wording ours: AADE's own for this case were not tried).
          return send(200, responseDoc(`<errors><error><message>Duplicate document: already registered with MARK ${same.mark}</message><code>228</code></error></errors><statusCode>ValidationError</statusCode>`));
        }
        if (next.kind !== 'error') {
          const uid = (++marks).toString(16).toUpperCase().padStart(40, '0');
          const invoice = /<invoice>([\s\S]*)<\/invoice>/.exec(body)![1]!;
          registered.push({ mark: marks, uid, authenticationCode: `AC${marks}`, qrUrl: `${origin()}/TimologioQR/QRInfo?q=${uid}`, invoice, issueDate: pick(body, 'issueDate'), invoiceType: pick(body, 'invoiceType') });
          if (next.kind === 'drop') {
            // Registered, then the connection is cut before any answer: the sender never learns the MARK.
            entry.answered = 'dropped';
            req.socket.destroy();
            return;
          }
        }
        const xml =
          next.kind !== 'error'
            ? responseDoc(`<invoiceUid>${registered.at(-1)!.uid}</invoiceUid><invoiceMark>${marks}</invoiceMark><qrUrl>${escape(registered.at(-1)!.qrUrl)}</qrUrl><authenticationCode>AC${marks}</authenticationCode><statusCode>Success</statusCode>`)
            : responseDoc(`<errors><error><message>${escape(next.message)}</message><code>${escape(next.code)}</code></error></errors><statusCode>ValidationError</statusCode>`);
        const own = await validateWith('response-v1.0.12.xsd', xml);
        if (!own.valid) throw new Error(`the stand-in's own answer is no ResponseDoc: ${own.errors.join('; ')}`);
        entry.answered = xml;
        res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
        res.end(xml);
      })().catch((e: unknown) => {
        res.writeHead(599);
        res.end(String(e));
      });
    });
  });
  const bound = await new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  return {
    url: `http://127.0.0.1:${bound}`,
    plan,
    received,
    queried,
    registered,
    paging,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
