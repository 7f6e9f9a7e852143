/**
 * Registers the service worker (/sw.js) once the page has loaded, so that installing it never
 * competes with the first screen. Only in the built app: the dev server has no sw.js.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch((e: unknown) => console.warn('Service worker not registered:', e));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

const RELOADED_KEY = 'crm.reloadedForUpdate';

/**
 * A newer version was deployed while this page was open: a screen's code it asks for is gone from
 * the server. Reload once to get the new version (not again within a minute, so a real outage does
 * not loop).
 */
export function reloadOnMissingCode() {
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(RELOADED_KEY) ?? 0);
    if (Date.now() - last < 60_000) return;
    sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
    event.preventDefault();
    window.location.reload();
  });
}
