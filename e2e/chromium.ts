import fs from 'node:fs';

/** Chromium for the suite: CHROMIUM_PATH, else the system's /usr/bin/chromium, else Playwright's own. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((p): p is string => !!p && fs.existsSync(p));
}
