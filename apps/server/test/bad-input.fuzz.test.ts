import { describe, expect, it } from 'vitest';
import { createTestApp, type Method } from './harness.ts';

/**
 * Bad input never gives a 500: every route of the OpenAPI document gets each kind of bad value in
 * each of its path, query and body fields (as an office admin, so that nothing is turned away
 * before the input is read), and whole bodies that are not JSON at all.
 */
const t = await createTestApp();
const { app } = t;

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; enum?: unknown[]; const?: unknown; default?: unknown; minimum?: number; pattern?: string; format?: string; minItems?: number };
type Param = { in: 'path' | 'query' | 'header'; name: string; schema?: Schema };
type Operation = { parameters?: Param[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
type Doc = { paths: Record<string, Record<string, Operation>> };

/** Values that pass for the field's type, so that one bad field at a time reaches the checks. */
function sample(s: Schema | undefined): unknown {
  if (!s) return 'x';
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.anyOf?.length) return sample(s.anyOf.find((x) => x.type !== 'null') ?? s.anyOf[0]);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) out[k] = sample(s.properties?.[k]);
      return out;
    }
    default:
      if (s.pattern?.includes('\\d{4}-\\d{2}-\\d{2}T')) return '2024-01-01T10:00:00';
      if (s.pattern?.includes('\\d{4}-\\d{2}-\\d{2}')) return '2024-01-01';
      if (s.format === 'email') return 'a@b.test';
      return 'x';
  }
}

/** Bad values for a path or query field, as they appear in a URL (already encoded). */
const URL_VALUES = ['2147483648', '-1', '1.5', 'abc', '%00', 'a%00b', '%ED%A0%80', '2024-02-30', '0000-01-01', '2024-01-01T25:00:00', '1e309', '9223372036854775808', ''];
/** Bad values for a JSON body field, as JSON text. */
const JSON_VALUES = ['2147483648', '-1', '1.5', '"abc"', '"2024-02-30"', '"0000-00-00"', '"2024-01-01T24:61:00"', '"a\\u0000b"', '"\\ud800"', '1e309', '9223372036854775808', '[]', '{}', 'null', '"%00"'];

const doc = (await app.inject({ url: '/api/docs/json' })).json() as Doc;
const fillPath = (path: string, values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? (name === 'entity' ? 'account' : '1'));

describe('bad input', () => {
  it('never gives a 5xx on any route of the OpenAPI document', { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    const jobs: (() => Promise<void>)[] = [];
    let calls = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        // A fresh office admin per route: a route may sign out or change the caller's password.
        const fresh = await t.user({ roles: ['admin'] });
        const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
        const bodySchema = op.requestBody?.content?.['application/json']?.schema;
        const baseBody = bodySchema ? (sample(bodySchema) as Record<string, unknown>) : undefined;
        const send = async (url: string, payload?: string, contentType = 'application/json') => {
          calls++;
          const res = await fresh.call(method.toUpperCase() as Method, url, payload, { headers: payload !== undefined ? { 'content-type': contentType } : {} });
          if (res.statusCode >= 500) failures.push(`${method.toUpperCase()} ${url} ${payload ?? ''} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
          else if (res.statusCode >= 400 && !String(res.headers['content-type']).includes('problem+json')) {
            failures.push(`${method.toUpperCase()} ${url} ${payload ?? ''} -> ${res.statusCode} without problem details`);
          }
        };
        const baseUrl = fillPath(path, {});
        const basePayload = baseBody !== undefined ? JSON.stringify(baseBody) : undefined;
        for (const p of params) {
          for (const v of URL_VALUES) {
            const url = p.in === 'path' ? fillPath(path, { [p.name]: v }) : `${baseUrl}?${encodeURIComponent(p.name)}=${v}`;
            jobs.push(() => send(url, basePayload));
          }
        }
        if (bodySchema) {
          const fields = Object.keys(bodySchema.properties ?? {});
          const isArray = bodySchema.type === 'array';
          for (const f of fields) {
            for (const v of JSON_VALUES) {
              const rest = JSON.stringify({ ...baseBody, [f]: '__BAD__' });
              jobs.push(() => send(baseUrl, rest.replace('"__BAD__"', v)));
            }
            // One level down too (the merge's kept account, a search's filter object ...).
            const inner = bodySchema.properties?.[f];
            const innerSchema = inner?.properties ? inner : inner?.anyOf?.find((x) => x.properties);
            if (innerSchema?.properties) {
              const innerBase = sample(innerSchema) as Record<string, unknown>;
              for (const g of Object.keys(innerSchema.properties)) {
                for (const v of JSON_VALUES) {
                  const rest = JSON.stringify({ ...baseBody, [f]: { ...innerBase, [g]: '__BAD__' } });
                  jobs.push(() => send(baseUrl, rest.replace('"__BAD__"', v)));
                }
              }
            }
          }
          if (isArray) {
            const item = sample(bodySchema.items) as Record<string, unknown>;
            for (const f of Object.keys(bodySchema.items?.properties ?? {})) {
              for (const v of JSON_VALUES) jobs.push(() => send(baseUrl, JSON.stringify([{ ...item, [f]: '__BAD__' }]).replace('"__BAD__"', v)));
            }
          }
        }
        if (method !== 'get' && method !== 'delete') {
          for (const raw of ['', '{"a":', '{', 'null', '"\\ud800"', '[1,2', '\u0000']) jobs.push(() => send(baseUrl, raw));
          jobs.push(() => send(baseUrl, 'firstName=a', 'application/x-www-form-urlencoded'));
          jobs.push(() => send(baseUrl, '<a/>', 'text/xml'));
        }
      }
    }
    // Side by side, a few at a time: the routes and their bad values are many.
    let next = 0;
    await Promise.all(Array.from({ length: 6 }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }));
    expect(calls).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  });
});

const admin = await t.user({ roles: ['admin'] });
describe('each kind of bad value', () => {
  const count = async () => (await t.pool.query('select count(*)::int as n from accounts')).rows[0].n as number;

  it('refuses impossible dates and times with a translated field error, storing nothing', async () => {
    const before = await count();
    const feb30 = await admin.post('/api/account/add', { firstName: 'Anna', lastName: 'Kara', startDate: '2024-02-30' }, { lang: 'el' });
    expect(feb30.statusCode).toBe(400);
    expect(feb30.json().errors.startDate).toEqual(['Αυτή η ημερομηνία δεν υπάρχει στο ημερολόγιο']);
    // The detail a screen shows is the message alone, without the API's field path ("startDate: …").
    expect(feb30.json().detail).toBe('Αυτή η ημερομηνία δεν υπάρχει στο ημερολόγιο');
    expect((await admin.post('/api/account/add', { firstName: 'Anna', lastName: 'Kara', endDate: '0000-01-01' }, { lang: 'ru' })).json().errors.endDate).toEqual(['Такой даты нет в календаре']);
    expect(await count()).toBe(before);
    expect((await admin.post('/api/clients/search', { startDate: '2023-02-29' })).statusCode).toBe(400);
    expect((await admin.post('/api/clients/search', { startDate: '2024-02-29' })).statusCode).toBe(200);
    expect((await admin.post('/api/partners', { createdOnEnd: '2024-13-01' })).statusCode).toBe(400);
    const late = await admin.post('/api/activity/actions', { startDate: '2024-01-01T24:00:00' });
    expect(late.statusCode).toBe(400);
    expect(late.json().errors.startDate).toBeDefined();
  });

  it('refuses ids past 2^31, negative, fractional or not numbers, in paths and bodies', async () => {
    for (const id of ['2147483648', '-1', '1.5', 'abc', '0']) {
      const res = await admin.get(`/api/account/view/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().errors.id).toHaveLength(1);
    }
    expect((await admin.get('/api/account/view/2147483647')).statusCode).toBe(404);
    expect((await admin.post('/api/account/update', { id: 2147483648, version: 1 })).json().errors.id).toEqual(['Must be 2\u00a0147\u00a0483\u00a0647 or less']);
    expect((await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', sourceId: 2 ** 31 })).statusCode).toBe(400);
  });

  it('refuses NUL characters and lone surrogates in any text: query, body, path and the login name', async () => {
    const search = await admin.get('/api/search?searchStr=a%00b', { lang: 'el' });
    expect(search.statusCode).toBe(400);
    expect(search.json().errors.searchStr).toEqual(['Περιέχει χαρακτήρες που δεν μπορούν να αποθηκευτούν (χαρακτήρα NUL ή αλλοιωμένο σύμβολο)']);
    const before = await count();
    const surrogate = await admin.post('/api/account/add', { firstName: 'Anna', lastName: 'Kara\ud800' });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().errors.lastName).toHaveLength(1);
    expect(await count()).toBe(before);
    // A whole pair (an emoji) is fine.
    expect((await admin.post('/api/account/add', { firstName: 'Anna', lastName: 'Kara 🏠' })).statusCode).toBe(200);
    const login = await app.inject({ method: 'POST', url: '/api/authenticate/login', payload: { username: 'admin\u0000@x.test', password: 'whatever-long' } });
    expect(login.statusCode).toBe(400);
    for (const url of ['/api/files/%00', '/api/files/a%00b.pdf']) {
      const res = await admin.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    const broken = await admin.get('/api/files/%ED%A0%80');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().detail).toBe('The address of the request cannot be read (it holds a broken character).');
  });

  it('refuses page offsets past what the database can skip, and answers an empty page far inside it', async () => {
    const huge = await admin.get('/api/account?currentPage=9223372036854775807&perPage=1000000');
    expect(huge.statusCode).toBe(400);
    expect(huge.json().errors.currentPage).toContain('Must be 1\u00a0000\u00a0000 or less');
    const far = await admin.get('/api/account?currentPage=1000000&perPage=1000000');
    expect(far.statusCode).toBe(200);
    expect(far.json().items).toEqual([]);
    expect((await admin.post('/api/clients/search', { currentPage: 2 ** 63 })).statusCode).toBe(400);
  });

  it('answers malformed JSON, an empty body, a wrong content type and a truncated upload with translated problem details', async () => {
    const bad = await admin.post('/api/account/add', '{"firstName":', { lang: 'el', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ title: 'Διορθώστε τα επισημασμένα πεδία.', detail: 'Το σώμα του αιτήματος δεν είναι έγκυρο JSON.' });
    const empty = await admin.post('/api/account/add', '', { lang: 'ru', headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toBe('Тело запроса пустое.');
    const xml = await admin.post('/api/account/add', '<a/>', { headers: { 'content-type': 'text/xml' } });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().detail).toBe('This type of content is not accepted.');
    const boundary = '----crmtest';
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="plan.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 half a fi`;
    const upload = await admin.post('/api/files', truncated, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(upload.statusCode).toBeGreaterThanOrEqual(400);
    expect(upload.statusCode).toBeLessThan(500);
    expect(upload.headers['content-type']).toContain('application/problem+json');
    expect(upload.json().title).toBe('The upload arrived incomplete or damaged. Try again.');
  });

  it('says that an unknown /api address is no call at all, not a deleted record', async () => {
    for (const [lang, text] of [
      ['en', 'There is no such call in the API. Check the address of the request.'],
      ['el', 'Δεν υπάρχει τέτοια κλήση στο API. Ελέγξτε τη διεύθυνση του αιτήματος.'],
      ['ru', 'В API нет такого вызова. Проверьте адрес запроса.'],
    ] as const) {
      const res = await admin.get('/api/no/such/thing', { lang });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ title: text, code: 'errors.noSuchCall' });
    }
    // A missing record still says so.
    expect((await admin.get('/api/account/view/2147483647')).json().code).toBe('errors.notFound');
  });
});
