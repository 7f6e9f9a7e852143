// A second CRM process that syncs one mailbox and is killed in the middle (mail.crash.test.ts):
// node --import tsx test/mail-sync-child.ts <database url> <data folder> <mailbox id>
// Built as the test harness builds an app, on the same database and data folder (the mailbox
// passwords' key is kept there), without the job runner; it says "syncing" before it starts.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { connectDb } from '../src/db/client.ts';
import { syncMailbox } from '../src/modules/mail/mail-sync.ts';

const [dbUrl, dataDir, id] = process.argv.slice(2);
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir!, PASSWORD_HASH_FAST: 'true', LOG_LEVEL: 'silent' });
const handle = connectDb(dbUrl!, 5, { timeZone: config.timeZone });
const app = await buildApp({ config, db: handle.db, jobs: false });
await app.ready();
process.stdout.write('syncing\n');
await syncMailbox(app, Number(id));
process.stdout.write('done\n');
await app.close();
await handle.close();
