import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, ConfigError, type Config } from '../apps/server/src/config.ts';

/** What npm run backup and npm run restore share: their arguments, the settings, the way they speak. */
export function say(line: string) {
  process.stdout.write(`${line}\n`);
}

export function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

export function parseArgs(argv: string[], flags: string[]): { positional: string[]; dataDir?: string; flags: Set<string> } {
  const positional: string[] = [];
  const set = new Set<string>();
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data-dir') {
      dataDir = argv[++i];
      if (!dataDir) fail('--data-dir needs a folder.', 2);
    } else if (a.startsWith('--data-dir=')) dataDir = a.slice('--data-dir='.length);
    else if (flags.includes(a)) set.add(a);
    else if (a.startsWith('--')) fail(`Unknown option ${a}.`, 2);
    else positional.push(a);
  }
  return { positional, dataDir, flags: set };
}

/** The server's settings (.env and the environment), DATA_DIR taken from --data-dir when given. */
export function settings(dataDir: string | undefined): Config {
  try {
    return loadConfig(dataDir ? { ...process.env, DATA_DIR: dataDir } : process.env);
  } catch (e) {
    if (e instanceof ConfigError) fail(`${e.message}\nSee .env.example for every setting and its allowed values.`, 2);
    throw e;
  }
}

export const appVersion = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as { version: string }).version;

export function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The address of the embedded PostgreSQL a running CRM started for DATA_DIR (its port from
 * postmaster.pid, its password from DATA_DIR/postgres/password), or undefined when none runs.
 */
export function runningEmbeddedUrl(dataDir: string): string | undefined {
  const pidFile = path.join(dataDir, 'postgres', 'pgdata', 'postmaster.pid');
  const pwFile = path.join(dataDir, 'postgres', 'password');
  if (!fs.existsSync(pidFile) || !fs.existsSync(pwFile)) return undefined;
  const port = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[3]);
  if (!(port > 0)) return undefined;
  const password = fs.readFileSync(pwFile, 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}
