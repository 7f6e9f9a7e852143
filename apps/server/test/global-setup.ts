import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { connectDb } from '../src/db/client.ts';
import { seedBase } from '../src/db/seed/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
    templateDb: string;
  }
}

let embedded: EmbeddedPostgres | undefined;
let tmpDir: string | undefined;

export function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * One PostgreSQL for the run (embedded, or TEST_DATABASE_URL), and a template database migrated
 * once; each test file copies it (CREATE DATABASE ... TEMPLATE), so files run isolated and in parallel.
 */
export async function setup(project: TestProject) {
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-test-'));
    fs.chmodSync(tmpDir, 0o755);
    embedded = await startEmbeddedPostgres(path.join(tmpDir, 'postgres'));
    serverUrl = embedded.url;
    // The server runs in its own process group: make sure it never outlives an interrupted run.
    const pid = embedded.pid;
    process.once('exit', () => {
      try {
        process.kill(pid, 'SIGINT'); // fast shutdown: clean, without us waiting
      } catch {
        /* already stopped */
      }
    });
  }
  try {
    return await prepare(project, serverUrl);
  } catch (e) {
    await embedded?.stop();
    throw e;
  }
}

async function prepare(project: TestProject, serverUrl: string) {
  const templateDb = `crm_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${templateDb}`);
  await admin.query(`create database ${templateDb}`);
  await admin.end();
  const templateUrl = withDatabase(serverUrl, templateDb);
  await migrateDb(templateUrl);
  const h = connectDb(templateUrl, 2);
  await seedBase(h.db);
  await h.close();
  project.provide('serverUrl', serverUrl);
  project.provide('templateDb', templateDb);

  return async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    const left = await c.query<{ datname: string }>(`select datname from pg_database where datname like 'crm_t_%' or datname = $1`, [templateDb]);
    for (const r of left.rows) await c.query(`drop database if exists "${r.datname}" with (force)`);
    await c.end();
    if (embedded) await embedded.stop();
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  };
}
