// npm test: typecheck, lint, the web unit tests, API tests on real PostgreSQL, web build, and the Playwright suite in Chromium.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const steps = [];
function run(name, cmd, args, opts = {}) {
  process.stdout.write(`\n=== ${name} ===\n`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: opts.cwd ?? root, env: { ...process.env, ...opts.env } });
  const ok = r.status === 0;
  steps.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) });
  if (!ok) process.stdout.write(`\n*** ${name} failed ***\n`);
  return ok;
}

function chromium() {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && fs.existsSync(p));
}

/**
 * Runs independent checks two at a time (the machine this runs on has 2 cores: typecheck and lint
 * took 2 minutes one after another). Each one's output is printed whole when it ends.
 */
async function runParallel(tasks, concurrency = 2) {
  let ok = true;
  const queue = [...tasks];
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      const [name, cmd, args] = task;
      const started = Date.now();
      const out = [];
      const status = await new Promise((resolve) => {
        const child = spawn(cmd, args, { cwd: root, env: process.env });
        child.stdout.on('data', (b) => out.push(b));
        child.stderr.on('data', (b) => out.push(b));
        child.on('error', (e) => {
          out.push(Buffer.from(String(e)));
          resolve(1);
        });
        child.on('close', (code) => resolve(code));
      });
      process.stdout.write(`\n=== ${name} ===\n${Buffer.concat(out).toString()}`);
      const passed = status === 0;
      steps.push({ name, ok: passed, seconds: Math.round((Date.now() - started) / 1000) });
      if (!passed) {
        process.stdout.write(`\n*** ${name} failed ***\n`);
        ok = false;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ok;
}

let failed = false;
// The two slowest first, so the short ones fill in beside them. "scripts" is the server and the
// scripts in one program (scripts/tsconfig.json), so the server's sources are checked once.
const checks = ['scripts', 'apps/web', 'packages/contract', 'e2e'].map((project) => [`typecheck ${project === 'scripts' ? 'apps/server and scripts' : project}`, bin('tsc'), ['-p', project, '--noEmit']]);
checks.splice(2, 0, ['lint', bin('eslint'), ['.', '--max-warnings=0']]);
checks.push(['import circles', process.execPath, [path.join(root, 'scripts/check-imports.mjs')]]);
checks.push(['decisions cited exist', process.execPath, [path.join(root, 'scripts/check-decisions.mjs')]]);
if (!(await runParallel(checks))) failed = true;

// The web app's pure functions (parsing what people type); no database, a second or two.
const webUnitJson = path.join(results, 'vitest-web.json');
if (!run('web unit tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${webUnitJson}`], { cwd: path.join(root, 'apps/web') })) failed = true;

const vitestJson = path.join(results, 'vitest.json');
if (!run('API tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`], { cwd: path.join(root, 'apps/server') })) failed = true;

const pwJson = path.join(results, 'playwright.json');
if (!run('web build', 'npm', ['run', 'build'])) failed = true;
else if (!chromium() && !fs.existsSync(path.join(process.env.HOME ?? '', '.cache/ms-playwright'))) {
  process.stdout.write(
    '\n!!! No Chromium found: set CHROMIUM_PATH, install Debian\'s chromium (apt-get install chromium), or run "npx playwright install chromium". The end-to-end suite did NOT run. !!!\n',
  );
  steps.push({ name: 'e2e (no Chromium)', ok: !process.env.CI, seconds: 0 });
  if (process.env.CI) failed = true;
} else if (!run('e2e (Playwright, Chromium)', bin('playwright'), ['test', '--reporter=list,json'], { cwd: path.join(root, 'e2e'), env: { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson } })) failed = true;

// Count the tests that ran, and name the ones that failed with the first lines of their error: the
// summary is the end of the output, which is what a CI log shows first (or only).
let passed = 0;
let failedTests = 0;
const failures = [];
const firstLines = (text) => String(text ?? '').replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '').split('\n').filter((l) => l.trim()).slice(0, 4).map((l) => `      ${l.trim().slice(0, 200)}`).join('\n');
for (const file of [webUnitJson, vitestJson]) {
  if (!fs.existsSync(file)) continue;
  const v = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failedTests += v.numFailedTests ?? 0;
  for (const suite of v.testResults ?? []) {
    const where = path.relative(root, suite.name ?? '');
    const bad = (suite.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of bad) failures.push(`${where} › ${a.fullName}\n${firstLines((a.failureMessages ?? []).join('\n'))}`);
    if (!bad.length && suite.status === 'failed') failures.push(`${where}\n${firstLines(suite.message)}`);
  }
}
if (fs.existsSync(pwJson)) {
  const p = JSON.parse(fs.readFileSync(pwJson, 'utf8'));
  passed += p.stats?.expected ?? 0;
  failedTests += (p.stats?.unexpected ?? 0);
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const last = (test.results ?? []).at(-1);
        failures.push(`${file ?? suite.file} › [${test.projectName}] ${spec.title}\n${firstLines(last?.error?.message ?? last?.errors?.[0]?.message)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, file ?? suite.file);
  };
  for (const suite of p.suites ?? []) walk(suite);
}

process.stdout.write('\n=== summary ===\n');
for (const s of steps) process.stdout.write(`${s.ok ? 'ok  ' : 'FAIL'}  ${s.name} (${s.seconds}s)\n`);
if (failures.length) process.stdout.write(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
process.stdout.write(`tests: ${passed} passed, ${failedTests} failed\n`);
process.exit(failed ? 1 : 0);
