// The worker thread that reads one uploaded spreadsheet (sheet-reader.ts starts it). The server's
// sources are TypeScript: the worker registers the same loader the server runs with, then reads.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();

// The spreadsheet library's streaming reader decodes each piece of a workbook's XML on its own, so a
// Greek or Russian letter whose two bytes fall into two pieces comes out as "��" (exceljs issues
// #2063, #2084, open since 2022; 4.4.0 is its latest release). Its XML reader is given here the
// same events from text decoded as one stream; the rest of the library is as released.
const require = createRequire(import.meta.url);
const parseSaxPath = require.resolve('exceljs/lib/utils/parse-sax.js');
const { SaxesParser } = createRequire(parseSaxPath)('saxes');
require(parseSaxPath);
require.cache[parseSaxPath].exports = async function* parseSax(iterable) {
  const parser = new SaxesParser();
  const decoder = new TextDecoder('utf-8');
  let error;
  let events = [];
  parser.on('error', (e) => (error = e));
  parser.on('opentag', (value) => events.push({ eventType: 'opentag', value }));
  parser.on('text', (value) => events.push({ eventType: 'text', value }));
  parser.on('closetag', (value) => events.push({ eventType: 'closetag', value }));
  for await (const chunk of iterable) {
    parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (error) throw error;
    yield events;
    events = [];
  }
  const rest = decoder.decode();
  if (rest) {
    parser.write(rest);
    if (error) throw error;
    yield events;
  }
};
const { readSheetFile } = await import('./sheet-read.ts');
const { file, limits } = workerData;
try {
  parentPort.postMessage({ sheet: await readSheetFile(file, limits) });
} catch (e) {
  // A refusal the reader words (AppError: a status and a text key), or a failure of ours.
  if (e && typeof e.status === 'number' && typeof e.code === 'string') parentPort.postMessage({ refused: { status: e.status, code: e.code, params: e.params ?? {} } });
  else parentPort.postMessage({ failed: e instanceof Error ? (e.stack ?? e.message) : String(e) });
}
