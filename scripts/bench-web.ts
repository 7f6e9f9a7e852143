// npm run bench:web — how fast the web app opens, measured with Lighthouse (from npm) in Debian's
// Chromium, next to the bundle budgets.
//
//   npm run bench:web [-- --runs 3 --preset mobile|desktop --page home|list|record|sign-in --build-web --reports --url http://host:port --email a@b --password p]
//
// 1. Builds the web app when apps/web/dist is missing (or with --build-web).
// 2. Starts the CRM (apps/server/src/main.ts) on a free port with the demo agency in its own data
//    folder (DATA_DIR, default ./data/bench-web), unless --url names a running one.
// 3. Signs in through the API in the browser, as the sign-in page does (its cookies, and the session
//    in localStorage "crm.session"); nothing else: no stored texts, no service worker, an empty HTTP cache (the
//    Lighthouse default), i.e. the first visit after signing in.
// 4. Runs Lighthouse (performance only) on the sign-in page, home, a list and a record view, with the
//    mobile preset (simulated slow 4G, 4x slower CPU, 412x823 screen) and the desktop preset; each
//    page --runs times (default 1), keeping the run with the median score.
// 5. Prints score, FCP, LCP, TBT, CLS and Speed Index against the goals (mobile: score >= 90,
//    LCP <= 2.5 s, TBT <= 200 ms; desktop: LCP <= 1.0 s; CLS < 0.05 everywhere), then the bundle
//    budgets (scripts/bundle-budget.mjs). Results go to DATA_DIR/lighthouse.json (and the HTML and JSON
//    reports with --reports). Goals missed are printed, not failed: the exit code is non-zero only
//    when something crashed.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import lighthouse, { desktopConfig, type Config, type Flags, type RunnerResult } from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=');
};
const RUNS = Math.max(1, Number(arg('runs') ?? 1));
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data/bench-web'));
const ADMIN = { email: arg('email') ?? 'bench-web@example.com', password: arg('password') ?? 'bench-web-password' };
const DEADLINE_MIN = 15;
const log = (line = '') => process.stdout.write(`${line}\n`);

const GOALS = {
  mobile: { score: 90, lcp: 2500, tbt: 200, cls: 0.05 },
  desktop: { lcp: 1000, cls: 0.05 },
} as const;

type Preset = keyof typeof GOALS;
type Page = { name: string; path: string; signedIn: boolean };
type Measured = { page: string; preset: Preset; score: number; fcp: number; lcp: number; tbt: number; cls: number; si: number; lcpElement?: string; runs: number[] };

function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => p && fs.existsSync(p));
  if (!found) throw new Error('No Chromium: install Debian\'s chromium (apt-get install chromium) or set CHROMIUM_PATH.');
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function buildWeb() {
  const dist = path.join(root, 'apps/web/dist/index.html');
  if (fs.existsSync(dist) && !argv.includes('--build-web')) return;
  log(`Building the web app (${fs.existsSync(dist) ? '--build-web' : 'apps/web/dist is missing'})...`);
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`web build failed:\n${b.stdout}\n${b.stderr}`);
}

async function startServer(): Promise<{ base: string; server?: ChildProcess }> {
  const url = arg('url');
  if (url) return { base: url.replace(/\/$/, '') };
  const port = await freePort();
  fs.mkdirSync(dataDir, { recursive: true });
  // Its own embedded database with the demo agency (never DATABASE_URL: its sign-ins are not ours).
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, DEMO_DATA: 'true', LOG_LEVEL: 'warn' },
  });
  let stderr = '';
  server.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (server.exitCode !== null) throw new Error(`The CRM did not start (exit ${server.exitCode}):\n${stderr}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, server };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill('SIGTERM');
  throw new Error(`The CRM did not answer within 2 minutes:\n${stderr}`);
}

async function signIn(base: string): Promise<unknown> {
  const res = await fetch(`${base}/api/authenticate/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }) });
  if (!res.ok) throw new Error(`Signing in as ${ADMIN.email} failed: ${res.status} ${await res.text()}`);
  return res.json();
}

async function firstOwnerId(base: string, token: string): Promise<number> {
  const res = await fetch(`${base}/api/owner?perPage=20&currentPage=1&sortBy=name&sortDir=asc`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { items?: { id: number }[] };
  const id = body.items?.[0]?.id;
  if (!id) throw new Error('No owner to open: the record view needs at least one account (start with DEMO_DATA=true).');
  return id;
}

type Items = { items?: Record<string, unknown>[] } | undefined;
/** Where the main thread's time went (for --reports): scripting per file (bootup-time), and the long tasks' count and length: steadier than TBT on a loaded machine. */
function mainThread(audits: RunnerResult['lhr']['audits']): string {
  const boot = ((audits['bootup-time']?.details as Items)?.items ?? []) as { url: string; scripting: number; total: number }[];
  const tasks = ((audits['long-tasks']?.details as Items)?.items ?? []) as { url: string; duration: number; startTime: number }[];
  const file = (u: string) => u.replace(/^.*\//, '') || u;
  const scripts = boot.map((b) => `${file(b.url)} ${Math.round(b.scripting)}`).join(', ');
  const long = tasks.map((t) => `${Math.round(t.duration)}@${Math.round(t.startTime)}`).join(' ');
  return `TBT ${Math.round(audits['total-blocking-time']?.numericValue ?? NaN)} ms; scripting ms: ${scripts}; long tasks (${tasks.length}, ms@start): ${long}`;
}

const median = (xs: Measured[]) => [...xs].sort((a, b) => a.score - b.score)[Math.floor(xs.length / 2)]!;

async function main() {
  const deadline = setTimeout(() => {
    process.stderr.write(`bench:web did not finish within ${DEADLINE_MIN} minutes; stopping.\n`);
    process.exit(1);
  }, DEADLINE_MIN * 60_000);
  deadline.unref();
  buildWeb();
  const { base, server } = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const results: Measured[] = [];
  try {
    const session = (await signIn(base)) as { token: string };
    const ownerId = await firstOwnerId(base, session.token);
    const pages: Page[] = [
      { name: 'sign-in', path: '/login', signedIn: false },
      { name: 'home', path: '/CRM', signedIn: true },
      { name: 'list (owners)', path: '/Owners', signedIn: true },
      { name: 'record (account view)', path: `/Accounts/View/${ownerId}`, signedIn: true },
    ];
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const reports = path.join(dataDir, 'lighthouse');
    if (argv.includes('--reports')) fs.mkdirSync(reports, { recursive: true });

    const presets = (['mobile', 'desktop'] as const).filter((p) => !arg('preset') || arg('preset') === p);
    for (const preset of presets) {
      for (const page of pages.filter((p) => !arg('page') || p.name.startsWith(arg('page') ?? ''))) {
        const runs: Measured[] = [];
        // A run whose trace Lighthouse could not record ("please run Lighthouse again") is run again,
        // twice at most, rather than counted as a score of 0.
        for (let i = 0, again = 0; i < RUNS; i++) {
          // The session only: Lighthouse itself empties the HTTP cache, the service worker and its caches.
          // Signed in as the sign-in page does it, in the browser: the answer's cookies (the page
          // cookie that lets the server draw a screen, decision 054) are the browser's, the session in
          // localStorage. Signed out: neither.
          const tab = await browser.newPage();
          await tab.goto(`${base}/terms.htm`);
          await tab.evaluate(
            async (signedIn, who) => {
              localStorage.clear();
              if (!signedIn) return;
              const res = await fetch('/api/authenticate/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who), credentials: 'include' });
              if (!res.ok) throw new Error(`Signing in failed: ${res.status}`);
              localStorage.setItem('crm.session', JSON.stringify(await res.json()));
              // The mark the app keeps beside its session (lib/session.ts setSession).
              document.cookie = 'crm_signed_in=1; path=/; SameSite=Strict';
            },
            page.signedIn,
            { username: ADMIN.email, password: ADMIN.password },
          );
          if (!page.signedIn) {
            const cdp = await tab.createCDPSession();
            await cdp.send('Network.clearBrowserCookies');
          }
          await tab.close();
          const flags: Flags = { port: chrome.port, output: argv.includes('--reports') ? 'html' : 'json', onlyCategories: ['performance'], logLevel: 'error' };
          const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
          const r = (await lighthouse(`${base}${page.path}`, flags, config)) as RunnerResult | undefined;
          if (!r) throw new Error(`Lighthouse gave no result for ${page.path}`);
          if (r.lhr.runtimeError && again < 2) {
            log(`  (${page.path}: ${r.lhr.runtimeError.message}; run again)`);
            again++;
            i--;
            continue;
          }
          const a = r.lhr.audits;
          const num = (id: string) => a[id]?.numericValue ?? NaN;
          const lcpItem = (a['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined)?.items?.[0]?.items?.[0]?.node?.snippet;
          runs.push({
            page: page.name,
            preset,
            score: Math.round((r.lhr.categories.performance?.score ?? 0) * 100),
            fcp: num('first-contentful-paint'),
            lcp: num('largest-contentful-paint'),
            tbt: num('total-blocking-time'),
            cls: num('cumulative-layout-shift'),
            si: num('speed-index'),
            lcpElement: lcpItem?.slice(0, 80),
            runs: [],
          });
          if (argv.includes('--reports')) {
            const stem = path.join(reports, `${preset}-${page.name.replace(/\W+/g, '-')}-${i + 1}`);
            fs.writeFileSync(`${stem}.html`, String(r.report));
            fs.writeFileSync(`${stem}.json`, JSON.stringify(r.lhr));
            log(`  ${page.name} run ${i + 1}: ${mainThread(r.lhr.audits)}`);
          }
          if (r.lhr.runtimeError) log(`  (${page.path}: ${r.lhr.runtimeError.message})`);
        }
        const m = median(runs);
        m.runs = runs.map((x) => x.score);
        results.push(m);
        process.stdout.write('.');
      }
    }
    log('');
    await browser.disconnect();
  } finally {
    await chrome.kill();
    if (server) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  }

  const s = (msv: number) => (Number.isNaN(msv) ? '—' : `${(msv / 1000).toFixed(2)} s`);
  const msf = (msv: number) => (Number.isNaN(msv) ? '—' : `${Math.round(msv)} ms`);
  log('');
  log(`Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version} in ${chromiumPath()}, first visit after signing in (empty cache); median of ${RUNS} run(s)`);
  log('');
  const header = ['preset', 'page', 'score', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'verdict'];
  log(`| ${header.join(' | ')} |`);
  log(`|${header.map(() => '---').join('|')}|`);
  for (const r of results) {
    const over: string[] = [];
    if (r.preset === 'mobile') {
      const g = GOALS.mobile;
      if (r.score < g.score) over.push(`score<${g.score}`);
      if (r.lcp > g.lcp) over.push(`LCP>${g.lcp / 1000}s`);
      if (r.tbt > g.tbt) over.push(`TBT>${g.tbt}ms`);
    } else if (r.lcp > GOALS.desktop.lcp) over.push(`LCP>${GOALS.desktop.lcp / 1000}s`);
    if (r.cls >= GOALS[r.preset].cls) over.push(`CLS≥${GOALS[r.preset].cls}`);
    const score = RUNS > 1 ? `${r.score} (${r.runs.join('/')})` : String(r.score);
    log(`| ${[r.preset, r.page, score, s(r.fcp), s(r.lcp), msf(r.tbt), r.cls.toFixed(3), s(r.si), over.length ? `OVER (${over.join(', ')})` : 'OK'].join(' | ')} |`);
  }
  log('');
  log('LCP element per page (mobile):');
  for (const r of results.filter((x) => x.preset === 'mobile')) log(`  ${r.page}: ${r.lcpElement ?? '—'}`);

  if (!argv.includes('--no-bundles')) {
    log('');
    log('Web bundle budgets (scripts/bundle-budget.mjs):');
    const b = spawnSync(process.execPath, [path.join(root, 'scripts/bundle-budget.mjs')], { cwd: root, encoding: 'utf8' });
    for (const line of `${b.stdout}${b.stderr}`.split('\n').filter(Boolean)) log(`  ${line}`);
  }

  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'lighthouse.json');
  fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), runs: RUNS, results }, null, 2));
  log('');
  log(`Results in ${file}${argv.includes('--reports') ? `; reports in ${path.join(dataDir, 'lighthouse')}` : ' (--reports writes the reports, HTML and JSON, and prints where the time on the main thread went in each run)'}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`bench:web failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
