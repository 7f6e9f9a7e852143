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
 * validated too): a MARK and UID, an error list, or a plain HTTP 500, as the test plans.
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

export type Planned = { kind: 'success' } | { kind: 'error'; code: string; message: string } | { kind: 'status'; status: number };
export type Received = { path: string; userId: string | undefined; key: string | undefined; body: string; valid: boolean; errors: string[]; answered: string };

let marks = 400001000000000;

const responseDoc = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<ResponseDoc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><response><index>1</index>${inner}</response></ResponseDoc>`;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startMydataServer(credentials: { userId: string; key: string }) {
  const plan: Planned[] = [];
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(parts).toString('utf8');
        const userId = req.headers['aade-user-id'] as string | undefined;
        const key = req.headers['ocp-apim-subscription-key'] as string | undefined;
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
        const xml =
          next.kind === 'success'
            ? responseDoc(`<invoiceUid>${(++marks).toString(16).toUpperCase().padStart(40, '0')}</invoiceUid><invoiceMark>${marks}</invoiceMark><authenticationCode>AC${marks}</authenticationCode><statusCode>Success</statusCode>`)
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
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  return {
    url: `http://127.0.0.1:${port}`,
    plan,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
