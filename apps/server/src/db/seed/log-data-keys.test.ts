import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLocaleFiles } from './index.ts';

/**
 * The action log shows each entry's data by label in the reader's language: a record's field by its
 * form's label, the log's own keys (signerName, sha256, hint…) under actionLog.data.*. This reads
 * every `logAction(…, { data: { … } })` the server writes and asks for a label of each key, so a new
 * key cannot reach the log screen as a raw name (the languages crawl found three such at once).
 */
const SRC = path.resolve(import.meta.dirname, '../..');

/** The described entities' field labels, as the log screen reads them (apps/web/src/lib/log-data.ts, FIELD_LABELS). */
const FIELD_LABELS: Record<string, string> = {
  Account: 'accounts.ui.field', Client: 'accounts.ui.field', Owner: 'accounts.ui.field', Professional: 'accounts.ui.field', Source: 'accounts.ui.field',
  Object: 'fields.object', Lead: 'fields.lead', Deal: 'fields.deal', Reservation: 'fields.reservation', Transaction: 'fields.transaction',
  Activity: 'activities.field', Document: 'documents.ui', Viewing: 'viewings.ui', ObjectKey: 'objectkeys', Mandate: 'mandates.field',
  Invoice: 'invoices.field', InvoiceSettings: 'invoices.settings', Mailbox: 'mailbox.field',
};

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The text inside the bracket opened just before `from`, up to its match. */
function inside(s: string, from: number): string {
  let depth = 1;
  let i = from;
  for (; i < s.length && depth; i++) {
    if ('([{'.includes(s[i]!)) depth++;
    else if (')]}'.includes(s[i]!)) depth--;
  }
  return s.slice(from, i - 1);
}

/** The keys written at the top level of an object literal's text (`a: x, b, ...rest`). */
function topKeys(body: string): string[] {
  let depth = 0;
  let top = '';
  for (const c of body) {
    if ('([{'.includes(c)) depth++;
    if (depth === 0) top += c;
    if (')]}'.includes(c)) depth--;
  }
  return [...top.replace(/\s+/g, ' ').matchAll(/(?:^|,)\s*([A-Za-z_]\w*)\s*(?=:|,|$)/g)].map((m) => m[1]!);
}

function loggedKeys(): { key: string; entity: string; file: string }[] {
  const all = files(SRC);
  const sources = new Map(all.map((f) => [f, fs.readFileSync(f, 'utf8')]));
  const everything = [...sources.values()].join('\n');
  const out: { key: string; entity: string; file: string }[] = [];
  for (const [file, s] of sources) {
    for (const m of s.matchAll(/logAction\(/g)) {
      const call = inside(s, m.index! + m[0].length);
      const literal = /entity:\s*'(\w+)'/.exec(call)?.[1];
      const constant = /entity:\s*([A-Z_]+)\b/.exec(call)?.[1];
      // A constant named in the file itself first (several modules call theirs ENTITY), else wherever it is declared.
      const declared = (text: string) => (constant ? new RegExp(`const ${constant}\\s*=\\s*'(\\w+)'`).exec(text)?.[1] : undefined);
      const entity = literal ?? declared(s) ?? declared(everything) ?? constant ?? '?';
      const data = /\bdata:\s*\{/.exec(call);
      if (!data) continue;
      for (const key of topKeys(inside(call, data.index + data[0].length))) out.push({ key, entity, file: path.relative(SRC, file) });
    }
  }
  return out;
}

describe("the action log's data keys", () => {
  const logged = loggedKeys();
  it('finds the keys the server logs (the reading itself works)', () => {
    expect(logged.length).toBeGreaterThan(100);
    expect(logged).toContainEqual(expect.objectContaining({ key: 'signerName', entity: 'SignRequest' }));
  });
  it.each(readLocaleFiles().map((c) => [c.culture, c.texts] as const))('each has a label in %s', (_culture, texts) => {
    const unlabelled = logged
      .filter(({ key }) => key !== 'id' && key !== 'version')
      .filter(({ key, entity }) => !texts[`actionLog.data.${key}`]?.trim() && !(FIELD_LABELS[entity] && texts[`${FIELD_LABELS[entity]}.${key}`]?.trim()))
      .map(({ key, entity, file }) => `${key} (${entity}, ${file})`);
    expect([...new Set(unlabelled)]).toEqual([]);
  });
});
