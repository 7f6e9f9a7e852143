import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES, loadConfig } from '../src/config.ts';

/**
 * deploy/ checked as far as this machine can without a Docker engine (docs/deploy.md): every setting
 * the compose file and the image pass is one the server reads, documented in .env.example, and
 * accepted together; HAProxy's own check passes on its configuration, whose servers are the compose
 * file's instances; the image starts the server the way npm start does.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');
const compose = read('deploy/compose.yaml');
const dockerfile = read('deploy/Dockerfile');

/** The instances' environment in compose.yaml (the x-crm block's environment:), as written. */
function composeSettings(): Record<string, string> {
  const block = /^x-crm:[\s\S]*?^ {2}environment:\n((?: {4}.*\n| *#.*\n)+)/m.exec(compose);
  expect(block, 'x-crm: environment: in deploy/compose.yaml').toBeTruthy();
  const out: Record<string, string> = {};
  for (const m of block![1]!.matchAll(/^ {4}([A-Z][A-Z0-9_]*): (.*)$/gm)) out[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1');
  return out;
}

/** The image's ENV (KEY=VALUE pairs on ENV lines). */
function imageSettings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of dockerfile.split('\n').filter((l) => l.startsWith('ENV '))) for (const m of line.slice(4).matchAll(/([A-Z][A-Z0-9_]*)=(\S+)/g)) out[m[1]!] = m[2]!;
  return out;
}

describe('the deployment files', () => {
  it('pass only settings the server reads and .env.example documents, and the server accepts them together', () => {
    const fromCompose = composeSettings();
    const fromImage = imageSettings();
    expect(Object.keys(fromCompose)).toContain('DATABASE_URL');
    expect(Object.keys(fromImage)).toContain('DATA_DIR');
    const example = read('.env.example');
    for (const name of [...Object.keys(fromCompose), ...Object.keys(fromImage)]) {
      expect(SETTING_NAMES, `${name} is no setting of the server`).toContain(name);
      expect(example, `${name} is not in .env.example`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
    // compose refuses to start without MAIL_SECRET_KEY; any key of the right form stands in for it.
    expect(fromCompose.MAIL_SECRET_KEY).toMatch(/^\$\{MAIL_SECRET_KEY:\?/);
    const config = loadConfig({ ...fromImage, ...fromCompose, MAIL_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(config.databaseUrl).toBe('postgres://crm:crm@pgbouncer:6432/crm');
    expect(config.s3).toMatchObject({ endpoint: 'http://minio:9000', bucket: 'crm-files', forcePathStyle: true });
    expect(config.trustProxy).toBe(true);
  });

  it("HAProxy's configuration passes its own check and balances the compose file's instances, checked where they say ready", () => {
    const r = spawnSync('/usr/sbin/haproxy', ['-c', '-f', path.join(ROOT, 'deploy/haproxy.cfg')], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Configuration file is valid');
    // Only the instances' names, unknown outside Docker, may be warned about.
    expect(r.stderr.split('\n').filter((l) => l.includes('[WARNING]') && !/could not resolve address 'app\d'/.test(l))).toEqual([]);
    const cfg = read('deploy/haproxy.cfg');
    const servers = [...cfg.matchAll(/^ {2}server (\S+) (\S+):3000 check$/gm)].map((m) => m[2]);
    const apps = [...compose.matchAll(/^ {2}(app\d+): \{ <<: \*crm \}$/gm)].map((m) => m[1]);
    expect(servers).toEqual(apps);
    expect(apps.length).toBeGreaterThanOrEqual(2);
    expect(cfg).toContain('option httpchk GET /api/health/ready');
    // The client's own address reaches the CRM, never one the client made up.
    expect(cfg).toMatch(/^ {2}option forwardfor$/m);
    expect(cfg).toMatch(/^ {2}http-request del-header X-Forwarded-For$/m);
    // Nor the host (it decides the payments-only variant) nor the protocol (the cookies' Secure flag).
    expect(cfg).toMatch(/^ {2}http-request del-header X-Forwarded-Host$/m);
    expect(cfg).toMatch(/^ {2}http-request set-header X-Forwarded-Proto http if !\{ ssl_fc \}$/m);
  });

  it('the image builds the web app as npm run build does and starts the server as npm start does', () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(cmd).toEqual(['node', '--import', 'tsx', 'apps/server/src/main.ts']);
    expect(read('scripts/start.mjs')).toContain("spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')]");
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    // npm run build writes what the server serves and draws first paints with (dist and dist-ssr).
    const web = JSON.parse(read('apps/web/package.json')) as { scripts: { build: string } };
    expect(web.scripts.build).toBe('vite build && vite build -c vite.ssr.config.ts');
    // The build context leaves out this machine's packages and data: the image installs its own.
    const ignored = read('.dockerignore').split('\n');
    for (const p of ['**/node_modules', '**/data', '**/.env', '**/dist']) expect(ignored).toContain(p);
    // Every file the compose file mounts from deploy/ is there.
    for (const m of compose.matchAll(/- \.\/([\w.-]+):/g)) expect(fs.existsSync(path.join(ROOT, 'deploy', m[1]!)), m[1]).toBe(true);
  });
});
