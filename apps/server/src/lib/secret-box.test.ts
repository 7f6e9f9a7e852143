import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAIL_KEY_FILE, openSecret, sealSecret, secretKey } from './secret-box.ts';

describe('the secret box', () => {
  it('seals with AES-256-GCM: a fresh IV each time, opened only with its key, a changed byte refused', () => {
    const key = randomBytes(32);
    const a = sealSecret(key, 'πάσσword 1');
    const b = sealSecret(key, 'πάσσword 1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('word');
    expect(openSecret(key, a)).toBe('πάσσword 1');
    expect(() => openSecret(randomBytes(32), a)).toThrow();
    const raw = Buffer.from(a.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => openSecret(key, `v1:${raw.toString('base64')}`)).toThrow();
  });

  it('takes MAIL_SECRET_KEY; without it, an embedded setup keeps one in DATA_DIR and one on DATABASE_URL has none', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-key-'));
    try {
      const hex = randomBytes(32).toString('hex');
      expect(secretKey({ mailSecretKey: hex, dataDir })?.equals(Buffer.from(hex, 'hex'))).toBe(true);
      expect(secretKey({ dataDir, databaseUrl: 'postgres://db/crm' })).toBeNull();
      const made = secretKey({ dataDir })!;
      expect(made.length).toBe(32);
      expect(fs.statSync(path.join(dataDir, MAIL_KEY_FILE)).mode & 0o777).toBe(0o600);
      // Kept: the same key after a restart (read from its file again).
      const again = Buffer.from(fs.readFileSync(path.join(dataDir, MAIL_KEY_FILE), 'utf8').trim(), 'base64');
      expect(again.equals(made)).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
