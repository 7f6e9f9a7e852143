import { describe, expect, it } from 'vitest';
import type { $ZodType } from 'zod/v4/core';
import { z } from 'zod';
import { createTestApp } from '../../test/harness.ts';
import { compiledResponseSchemas } from './serializer.ts';

type Def = { type: string; [k: string]: unknown };

/** The kinds of schema whose parse and encode differ (a value turned one way or the other). */
function oneWayParts(schema: $ZodType, path: string, seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Def;
  const found = def.type === 'transform' || def.type === 'pipe' ? [`${path}: ${def.type}`] : [];
  const child = (s: unknown, p: string) => (s && typeof s === 'object' && '_zod' in s ? oneWayParts(s as $ZodType, p, seen) : []);
  if (def.type === 'object') for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) found.push(...child(v, `${path}.${k}`));
  for (const key of ['element', 'innerType', 'in', 'out', 'left', 'right', 'keyType', 'valueType', 'rest']) found.push(...child(def[key], `${path}<${key}>`));
  for (const key of ['options', 'items']) for (const [i, s] of ((def[key] as unknown[]) ?? []).entries()) found.push(...child(s, `${path}[${i}]`));
  if (def.type === 'lazy') found.push(...child((def.getter as () => unknown)(), `${path}<lazy>`));
  return found;
}

describe('answers', () => {
  it('are checked by parsing: no route answers through a transform or a codec, where parse and encode differ', async () => {
    const t = await createTestApp();
    const schemas = compiledResponseSchemas.filter((s) => s.url.startsWith('/api/'));
    expect(new Set(schemas.map((s) => `${s.method} ${s.url}`)).size).toBeGreaterThan(150);
    // The walk finds them where they are, nested too.
    const codec = z.codec(z.string(), z.number(), { decode: Number, encode: String });
    expect(oneWayParts(z.object({ items: z.array(z.object({ price: z.string().transform(Number).nullable() })), at: codec }), 'x')).toEqual(expect.arrayContaining(['x.items<element>.price<innerType>: pipe', 'x.at: pipe']));
    const oneWay = schemas.flatMap((s) => oneWayParts(s.schema, `${s.method} ${s.url}`));
    expect(oneWay).toEqual([]);
    await t.app.close();
  });

  it('still leave out what the schema does not name, and refuse what it does not allow', async () => {
    const t = await createTestApp({}, (app) => {
      const answer = z.object({ id: z.number().int(), name: z.string() });
      app.get('/api/test/answer', { config: { access: 'public' }, schema: { response: { 200: answer } } }, async (req) =>
        (req.query as { bad?: string }).bad ? { id: 'one', name: 'Eleni' } : { id: 1, name: 'Eleni', passwordHash: 'secret', notes: 'internal' },
      );
    });
    const ok = await t.app.inject({ method: 'GET', url: '/api/test/answer' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: 1, name: 'Eleni' });
    const bad = await t.app.inject({ method: 'GET', url: '/api/test/answer?bad=1' });
    expect(bad.statusCode).toBe(500);
    expect(bad.body).not.toContain('Eleni');
    await t.app.close();
  });
});
