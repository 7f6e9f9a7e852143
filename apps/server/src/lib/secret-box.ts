import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';

/**
 * Secrets kept in the database (a mailbox's passwords) encrypted with AES-256-GCM (decision 078):
 * `v1:` + base64(12-byte IV ‖ 16-byte tag ‖ cipher text). The key is MAIL_SECRET_KEY; without it an
 * embedded setup (no DATABASE_URL) makes one, once, in DATA_DIR/mail-secret.key (readable by the
 * owner only), as the embedded database's password is kept. A setup on DATABASE_URL (several
 * instances, each with its own DATA_DIR) must be given the key: without it nothing is stored.
 */
export const MAIL_KEY_FILE = 'mail-secret.key';

export class NoSecretKey extends Error {
  constructor() {
    super('MAIL_SECRET_KEY is not set (it is required with DATABASE_URL)');
  }
}

const parseKey = (k: string): Buffer => (/^[0-9a-fA-F]{64}$/.test(k) ? Buffer.from(k, 'hex') : Buffer.from(k, 'base64'));

const keys = new Map<string, Buffer>();

/** The key, or null when this setup has none (DATABASE_URL without MAIL_SECRET_KEY). */
export function secretKey(config: Pick<Config, 'mailSecretKey' | 'databaseUrl' | 'dataDir'>): Buffer | null {
  if (config.mailSecretKey) return parseKey(config.mailSecretKey);
  if (config.databaseUrl) return null;
  const file = path.join(config.dataDir, MAIL_KEY_FILE);
  const kept = keys.get(file);
  if (kept) return kept;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  const key = parseKey(fs.readFileSync(file, 'utf8').trim());
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  keys.set(file, key);
  return key;
}

export function sealSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

/** The clear text of a sealed secret; throws when the key is not the one it was sealed with. */
export function openSecret(key: Buffer, sealed: string): string {
  if (!sealed.startsWith('v1:')) throw new Error('not a sealed secret');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
