import fs from 'node:fs';

/**
 * Chromium for the suite: CHROMIUM_PATH, else the system's headless shell (Debian's
 * chromium-headless-shell: the same engine without the desktop browser's compositor, which costs
 * less CPU a page), else the system's /usr/bin/chromium, else Playwright's own.
 */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((p): p is string => !!p && fs.existsSync(p));
}

/**
 * The desktop browser itself, for the specs that need what the headless shell leaves out (its PDF
 * viewer: a PDF opened in a new tab is shown, not downloaded): CHROMIUM_FULL_PATH, else the
 * system's chromium, else the suite's browser.
 */
export function fullChromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_FULL_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((p): p is string => !!p && fs.existsSync(p)) ?? chromiumPath();
}
