import 'dotenv/config';
import path from 'node:path';
import fs from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { lockDataDir, DataDirLockedError } from './lib/data-dir-lock.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.ts';
import { connectDb } from './db/client.ts';
import pg from 'pg';
import { DatabaseNewerError, migrateDb } from './db/migrate.ts';
import { createFileStorage } from './storage/file-storage.ts';
import { seedBase } from './db/seed/index.ts';
import { seedDemo } from './db/seed/demo.ts';
import { buildApp } from './app.ts';
import { ensureFirstAdmin, initialAdminPasswordFile } from './modules/auth/auth.service.ts';
import { generatePassword } from './lib/passwords.ts';
import { linkBase } from './modules/settings/site-settings.service.ts';
import { isLocalAddress } from '@crm/contract';

function say(line: string) {
  process.stdout.write(`${line}\n`);
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\nSee .env.example for every setting and its allowed values.\n`);
      process.exit(2);
    }
    throw e;
  }

  // DATA_DIR belongs to one process only with the embedded database in it. With DATABASE_URL every
  // instance keeps nothing there that another needs (decision 062): several may share a machine.
  let releaseLock: () => void = () => {};
  try {
    if (!config.databaseUrl) releaseLock = lockDataDir(config.dataDir);
  } catch (e) {
    if (e instanceof DataDirLockedError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(3);
    }
    throw e;
  }

  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  const cleanup: (() => Promise<void>)[] = [];
  const fail = async (e: unknown) => {
    process.stderr.write(`Start-up failed: ${e instanceof Error ? e.message : String(e)}\n`);
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
    releaseLock();
    process.exit(e instanceof DatabaseNewerError ? 4 : 1);
  };

  // Stopped at any moment, start-up included: whatever has started is stopped cleanly. Once the
  // server listens, `stop` is replaced by the graceful shutdown below.
  let stop = async (signal: string): Promise<void> => {
    say(`${signal} received during start-up: stopping...`);
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
    releaseLock();
    process.exit(0);
  };
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => void stop(sig));
  // Started by a launcher (npm start) or a shell that is gone, for whatever reason: stop too,
  // rather than run on as an orphan nobody can stop with Ctrl+C.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop('Parent process gone');
  }, 1000).unref();

  try {
    if (!databaseUrl) {
      say(`Starting the embedded PostgreSQL (data in ${path.join(config.dataDir, 'postgres')})...`);
      embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'), { log: say });
      cleanup.push(() => embedded!.stop());
      databaseUrl = embedded.url;
      // Should this process die abruptly, the database still shuts down cleanly on its own.
      const pid = embedded.pid;
      process.once('exit', () => {
        try {
          process.kill(pid, 'SIGINT');
        } catch {
          /* already stopped */
        }
      });
    }
    // Migrations and the LISTEN connection go to the primary directly, never through a pooler.
    const directUrl = config.database.directUrl ?? databaseUrl;
    await migrateDb(directUrl, { timeZone: config.timeZone });
    if (config.s3) {
      const store = await createFileStorage(config.dataDir, config.s3);
      await (store as { check?: () => Promise<void> }).check?.();
    }
    const handle = connectDb(databaseUrl, config.database.poolSize, {
      timeZone: config.timeZone,
      preparedStatements: config.database.preparedStatements,
      readUrl: config.database.readUrl,
      directUrl: config.database.directUrl,
    });
    cleanup.push(() => handle.close());
    await checkAgencyZone(handle.pool, config.timeZone);

    // The lists, the first administrator and the demo agency: made by one instance when several
    // start together (the others wait, then find them made).
    await underStartLock(directUrl, () => seedBase(handle.db));
    const app = await buildApp({ config, db: handle.db, readPool: handle.readPool, logger: { level: config.logLevel } });
    const adminPassword = config.adminPassword ?? generatePassword();
    const created = await underStartLock(directUrl, async () => {
      const made = await ensureFirstAdmin(app, config.adminEmail, adminPassword);
      if (config.demoData) await seedDemo(app);
      return made;
    });

    await app.listen({ port: config.port, host: config.host });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    if (!config.publicUrlSet) config.publicUrl = `http://localhost:${port}`;
    const url = config.publicUrl;
    say('');
    say(`Agency CRM is running at ${url}`);
    say(`  database: ${embedded ? `embedded PostgreSQL on 127.0.0.1:${embedded.port}` : `DATABASE_URL${config.database.readUrl ? ' (reads also from DATABASE_READ_URL)' : ''}`}`);
    say(`  files:    ${config.s3 ? `S3 store s3://${config.s3.bucket}/${config.s3.prefix}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}` : path.join(config.dataDir, 'files')}`);
    say(`  mail:     ${app.mailer.describe}`);
    say(`  API docs: ${url}/api/docs`);
    // Links are built on the settings' public address, else PUBLIC_URL: said once when they lead only to this machine.
    const links = await linkBase(app);
    if (isLocalAddress(links)) {
      say(`  Links in e-mails, shortlists and the feed point to this machine (${links}): they will not work outside it. Set the public address in Settings (or PUBLIC_URL).`);
    }
    if (created) {
      say('');
      say('  The first administrator was created:');
      say(`    sign-in:  ${config.adminEmail}`);
      say(`    password: ${config.adminPassword ? '(the ADMIN_PASSWORD you set)' : adminPassword}`);
      if (!config.adminPassword) {
        const file = initialAdminPasswordFile(config.dataDir);
        fs.writeFileSync(file, `${config.adminEmail}\n${adminPassword}\n`, { mode: 0o600 });
        say(`    (also saved in ${file}; change the password once signed in)`);
      }
    }
    say('');

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      // Not ready any more: the balancer stops sending new requests, while this instance still
      // answers what reaches it meanwhile (SHUTDOWN_DRAIN_SECONDS), then stops listening.
      app.lifecycle.draining = true;
      const drain = config.shutdownDrainSeconds;
      say(`${signal} received: ${drain ? `draining for ${drain} s, then ` : ''}finishing requests in flight and running jobs, then stopping...`);
      const force = setTimeout(() => {
        process.stderr.write('Shutdown took longer than 30 s after draining; stopping now.\n');
        process.exit(1);
      }, 30000 + drain * 1000);
      force.unref();
      if (drain) await new Promise((r) => setTimeout(r, drain * 1000));
      try {
        await app.close(); // stops accepting, waits for requests in flight
      } catch (e) {
        process.stderr.write(`Error while closing the server: ${String(e)}\n`);
      }
      for (const fn of cleanup.reverse()) await fn().catch(() => {});
      releaseLock();
      say('Stopped.');
      process.exit(0);
    };
    stop = shutdown;
  } catch (e) {
    await fail(e);
  }
}

/**
 * Runs `work` holding a session-level advisory lock on a direct connection of its own: instances
 * starting together seed one after the other (each finds what the one before made).
 */
async function underStartLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'agency-crm start' });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(727276)');
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock(727276)').catch(() => {});
    await client.end().catch(() => {});
  }
}

/**
 * The agency's day in SQL (crm_today()) reads crm.time_zone: sent with each connection, and kept as
 * the database's default for connections through a pooler that drops start-up options. Neither: the
 * reason, rather than dates a day off around midnight.
 */
async function checkAgencyZone(pool: pg.Pool, zone: string) {
  const r = await pool.query<{ zone: string | null }>(`select current_setting('crm.time_zone', true) as zone`);
  const got = r.rows[0]?.zone;
  if (got !== zone) {
    throw new Error(
      `The database's connections read the agency's time zone as ${got ? `"${got}"` : 'nothing'}, not TIME_ZONE "${zone}". ` +
        `Through a pooler, let the CRM's owner role set it (it does at start), or run: ALTER DATABASE <name> SET crm.time_zone = '${zone}'.`,
    );
  }
}

void main();
