import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { loadSharp } from '../../modules/files/pictures.ts';

/**
 * The demo agency's logo (issue 45): a roof over the gulf's waves in the agency's colours, drawn as
 * shapes (no lettering, so no font decides how it looks), stored as the settings' logo is (a PNG
 * through the file store). Its mails then carry it inline, and its sheets and public site show it.
 * Only where the agency has no logo of its own.
 */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160" viewBox="0 0 480 160">
  <rect width="480" height="160" rx="18" fill="#ffffff"/>
  <path d="M40 86 L110 30 L180 86 Z" fill="#1b4f8a"/>
  <rect x="62" y="84" width="96" height="40" fill="#1b4f8a"/>
  <rect x="98" y="96" width="24" height="28" fill="#ffffff"/>
  <path d="M200 70 q20 -16 40 0 t40 0 t40 0 t40 0 t40 0 t40 0" fill="none" stroke="#2f6fb3" stroke-width="10" stroke-linecap="round"/>
  <path d="M200 100 q20 -16 40 0 t40 0 t40 0 t40 0 t40 0 t40 0" fill="none" stroke="#6b9bd1" stroke-width="10" stroke-linecap="round"/>
  <path d="M200 130 q20 -16 40 0 t40 0 t40 0 t40 0 t40 0 t40 0" fill="none" stroke="#b3cde8" stroke-width="10" stroke-linecap="round"/>
</svg>`;

export async function seedDemoLogo(tx: Tx, dataDir: string): Promise<void> {
  const [row] = (await tx.execute(sql`select logo_name from site_settings where id = 1`)).rows as { logo_name: string | null }[];
  if (!row || row.logo_name) return;
  const sharp = await loadSharp();
  const file = path.join(dataDir, `demo-logo-${randomBytes(6).toString('hex')}.png`);
  try {
    await sharp(Buffer.from(LOGO_SVG)).png().toFile(file);
    const name = `logo-${randomBytes(16).toString('hex')}.png`;
    await getFileStorage(dataDir).put(name, { path: file });
    await tx.execute(sql`update site_settings set logo_name = ${name} where id = 1 and logo_name is null`);
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}
