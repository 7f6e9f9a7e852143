import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createMailer } from './mailer.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-outbox-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const quiet = { info: () => undefined } as unknown as FastifyBaseLogger;

describe('the file outbox', () => {
  it('keeps every mail, also several to one address in the same moment, oldest first', async () => {
    const mailer = createMailer({ from: 'office@agency.test', dataDir, log: quiet });
    const sent = await Promise.all(Array.from({ length: 12 }, (_, i) => mailer.send({ to: 'maria@agency.test', subject: `Reset ${i}`, text: `Mail number ${i}` })));
    const files = fs.readdirSync(path.join(dataDir, 'outbox')).sort();
    expect(new Set(sent.map((s) => s.file)).size).toBe(12);
    expect(files).toHaveLength(12);
    const subjects = files.map((f) => /Subject: (Reset \d+)/.exec(fs.readFileSync(path.join(dataDir, 'outbox', f), 'utf8'))?.[1]);
    expect(new Set(subjects).size).toBe(12);
    // Written one after another, they sort as they were written.
    const one = await mailer.send({ to: 'maria@agency.test', subject: 'Later', text: 'x' });
    expect(fs.readdirSync(path.join(dataDir, 'outbox')).sort().at(-1)).toBe(path.basename(one.file!));
  });
});
