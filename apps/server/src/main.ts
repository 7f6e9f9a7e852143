import 'dotenv/config';
import path from 'node:path';
import fs from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { lockDataDir, DataDirLockedError } from './lib/data-dir-lock.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.ts';
import { connectDb } from './db/client.ts';
import { migrateDb } from './db/migrate.ts';
import { seedBase } from './db/seed/index.ts';
import { seedDemo } from './db/seed/demo.ts';
import { buildApp } from './app.ts';
import { ensureFirstAdmin, initialAdminPasswordFile } from './modules/auth/auth.service.ts';
import { generatePassword } from './lib/passwords.ts';

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

  let releaseLock: () => void;
  try {
    releaseLock = lockDataDir(config.dataDir);
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
    process.exit(1);
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
    await migrateDb(databaseUrl);
    const handle = connectDb(databaseUrl, 20, { timeZone: config.timeZone });
    cleanup.push(() => handle.close());
    await seedBase(handle.db);

    const app = await buildApp({ config, db: handle.db, logger: { level: config.logLevel } });
    const adminPassword = config.adminPassword ?? generatePassword();
    const created = await ensureFirstAdmin(app, config.adminEmail, adminPassword);
    if (config.demoData) {
      await seedDemo(app);
    }

    await app.listen({ port: config.port, host: config.host });
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    if (!config.publicUrlSet) config.publicUrl = `http://localhost:${port}`;
    const url = config.publicUrl;
    say('');
    say(`Agency CRM is running at ${url}`);
    say(`  database: ${embedded ? `embedded PostgreSQL on 127.0.0.1:${embedded.port}` : 'DATABASE_URL'}`);
    say(`  mail:     ${app.mailer.describe}`);
    say(`  API docs: ${url}/api/docs`);
    if (!config.publicUrlSet) say('  PUBLIC_URL is not set: links in e-mails point to this machine (localhost). Set it to the address users open.');
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
      say(`${signal} received: finishing requests in flight, then stopping...`);
      const force = setTimeout(() => {
        process.stderr.write('Shutdown took longer than 30 s; stopping now.\n');
        process.exit(1);
      }, 30000);
      force.unref();
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

void main();
