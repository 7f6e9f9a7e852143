import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumPath, fullChromiumPath } from './chromium.ts';

/**
 * A port from the environment variable `name`, else a free one chosen once by the runner and handed
 * to its workers through the environment (they read this file again).
 */
function portFrom(name: string): number {
  if (!process.env[name]) {
    const probe = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
    process.env[name] = execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).trim();
  }
  return Number(process.env[name]);
}
/** The server's port (E2E_PORT). */
export const E2E_PORT = portFrom('E2E_PORT');
/** The local myDATA stand-in's port (started by mydata-stand-in.ts before the run). */
export const E2E_MYDATA_PORT = portFrom('E2E_MYDATA_PORT');
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ? path.resolve(process.env.E2E_DATA_DIR) : path.resolve(import.meta.dirname, '.data');
export const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password' };

const executablePath = chromiumPath();
const launchArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
// Specs that open a PDF in a new tab run in the desktop browser, which shows it.
const PDF_SPECS = /office\.spec\.ts$/;

export default defineConfig({
  testDir: './specs',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    viewport: { width: 1440, height: 900 },
    // The service worker would install (and precache every asset) in each test's fresh browser; only
    // the specs about it (installable.spec.ts) allow it.
    serviceWorkers: 'block',
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath, args: launchArgs },
  },
  projects: [
    { name: 'chromium', testIgnore: [/\.serial\.spec\.ts$/, PDF_SPECS], use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } } },
    {
      name: 'chromium-desktop',
      testMatch: PDF_SPECS,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions: { executablePath: fullChromiumPath(), args: launchArgs } },
    },
    // Specs that change the admin's own sign-in run once the others are done.
    { name: 'serial', testMatch: /\.serial\.spec\.ts$/, dependencies: ['chromium', 'chromium-desktop'], use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } } },
  ],
  // A local stand-in for AADE's myDATA (apps/server/test/mydata-server.ts), which the server sends invoices to.
  globalSetup: './mydata-stand-in.ts',
  webServer: {
    command: 'node ./start-server.mjs',
    url: `http://localhost:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    // SIGTERM lets the app finish and stop its embedded PostgreSQL cleanly.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15000 },
    timeout: 120000,
    // E2E_SERVER_LOG=info|debug shows the server's log beside the tests' (to see what a slow test waited for).
    stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: process.env.E2E_SERVER_LOG ?? 'warn',
      DEMO_DATA: 'true',
      // No daily backups of the test agency; a test makes one when it asks.
      BACKUPS: 'false',
      // The scrypt cost of the test suite (as the API tests): a strong hash is ~0.5 s of a core, and the
      // suite signs in some 250 times on a 2-core machine. Its strength is tested by the API tests.
      PASSWORD_HASH_FAST: 'true',
      // The first paint is tested for what it draws, not how fast: a busy test machine waits for the
      // drawing up to 5 s (production hands the page to the browser after 0.8 s: issue 45, bench:paint).
      FIRST_PAINT_MS: '5000',
      // The payments-only app answers on 127.0.0.1 (exact host and port); the CRM stays on localhost.
      PAYMENTS_HOST: `127.0.0.1:${E2E_PORT}`,
      MYDATA_URL: `http://127.0.0.1:${E2E_MYDATA_PORT}`,
      MYDATA_RETRY_SECONDS: '1',
      ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
    },
  },
});
