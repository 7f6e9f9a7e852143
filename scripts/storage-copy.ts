// npm run storage:copy -- [--data-dir DIR] [--back]: copies the stored files of DATA_DIR/files into
// the S3-compatible store the settings name (STORAGE=s3 and the S3_* settings), reads every copy back
// and compares its size and SHA-256 with the original. Run it again at will: files already copied
// (same checksum) are left as they are. --back copies the store's files into DATA_DIR/files instead
// (leaving S3 for local disk). The source is never changed. Exit code 0: every file is in the target
// and proven equal; 1: some failed (listed).
import 'dotenv/config';
import path from 'node:path';
import { LocalDiskStorage } from '../apps/server/src/storage/file-storage.ts';
import { S3Storage } from '../apps/server/src/storage/s3-storage.ts';
import { copyStore } from '../apps/server/src/storage/copy-store.ts';
import { fail, megabytes, parseArgs, say, settings } from './backup-cli.ts';

const args = parseArgs(process.argv.slice(2), ['--back']);
if (args.positional.length) fail('Usage: npm run storage:copy -- [--data-dir DIR] [--back]', 2);
const config = settings(args.dataDir);
if (!config.s3) fail('Set STORAGE=s3 and the S3_* settings (S3_BUCKET at least) of the store to copy into (see .env.example).', 2);

const local = new LocalDiskStorage(path.join(config.dataDir, 'files'));
const s3 = new S3Storage(config.s3);
try {
  await s3.check();
} catch (e) {
  fail((e as Error).message);
}
const [from, to] = args.flags.has('--back') ? [s3, local] : [local, s3];
say(`Copying the stored files from ${from.where} to ${to.where}; each copy is read back and compared...`);
const started = Date.now();
const r = await copyStore(from, to, { log: say });
say(`${r.copied} copied (${megabytes(r.bytes)}), ${r.alreadyThere} there already and equal, ${r.failed.length} failed; ${((Date.now() - started) / 1000).toFixed(1)} s.`);
for (const f of r.failed.slice(0, 50)) say(`  failed: ${f.name}: ${f.reason}`);
if (r.failed.length > 50) say(`  ... and ${r.failed.length - 50} more.`);
if (r.failed.length) {
  say('Run the command again to retry them; nothing in the source was changed.');
  process.exitCode = 1;
} else say(`Every file is in ${to.where}, proven equal to its original.${args.flags.has('--back') ? '' : ' Now start the CRM with STORAGE=s3.'}`);
