import { startTransition } from 'react';
import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
// Mantine's base styles; each component's own styles come with the component (build/mantine-css.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
// The theme's variables, written by the build (build/theme-variables.ts).
import './app/theme-variables.css';
import './app/app.css';
import { initI18n } from './lib/i18n.ts';
import { initVariant } from './lib/variant.ts';
import { App, StartupFailure } from './app/app.tsx';
import { registerServiceWorker, reloadOnMissingCode } from './lib/service-worker.ts';
import { appRouter, startRouter } from './app/router.tsx';
import { nextTask } from './lib/next-task.ts';
import { queryClient } from './app/query-client.ts';
import { setAssumedWidth, takingOver, tookOver } from './lib/first-paint.ts';
import { sessionStore } from './lib/session.ts';
import { setAgencyZone } from './lib/agency-clock.ts';
import { variantStore } from './lib/variant.ts';

reloadOnMissingCode();

const container = document.getElementById('root')!;

/**
 * A screen the server drew (decision 054): the data it shows answer the screen's first queries, and
 * the agency's clock it was drawn on is the app's from the start. Read in a task after the modules'
 * evaluation (decision 120): the page's data is parsed and put in the cache there, not in that task.
 */
function takeDrawn(): HTMLElement | null {
  let drawn = takingOver() ? document.getElementById('crm-first-paint') : null;
  if (!drawn) return null;
  try {
    const paint = JSON.parse(drawn.textContent ?? 'null') as { state: DehydratedState; config: { timeZone?: string; clock?: unknown }; width: number; user: string };
    // Drawn for someone else than the session this browser holds (signed out or in meanwhile): the
    // drawing and its data are dropped, and the browser draws the screen for its own session.
    if (paint.user !== sessionStore.get()?.username) throw new Error('drawn for another session');
    setAssumedWidth(paint.width);
    hydrate(queryClient, paint.state);
    setAgencyZone(paint.config.timeZone, paint.config.clock);
    variantStore.set('crm');
  } catch {
    // Unreadable, or not this session's: the browser draws the screen, asking for its data as usual.
    drawn.remove();
    drawn = null;
    queryClient.clear();
    container.replaceChildren();
    tookOver();
  }
  drawn?.remove();
  return drawn;
}

/**
 * The start in tasks of its own, the browser free to paint and answer between them: the modules'
 * evaluation ends here; then the drawn page's data, the texts and the app's variant (their answers,
 * asked by index.html, are read in that task, decision 120); then the router (the first screen's
 * code and data start loading); then the first render, itself a React transition that renders in
 * slices (on a phone's slower core all of this was one task of most of a second).
 */
async function start() {
  await nextTask();
  const drawn = takeDrawn();
  // Texts stored from an earlier visit: render now (they are revalidated meanwhile). First visit: the
  // texts load while the screen's code does.
  // Which app this host is (CRM or payments): known from an earlier visit, or asked alongside.
  const texts = initI18n();
  const variant = initVariant();
  const ready = texts === true && variant === true ? true : Promise.all([texts, variant]);
  // Awaited below, once the router has started; not reported as unhandled meanwhile.
  if (ready !== true) ready.catch(() => undefined);
  await nextTask();
  appRouter();
  await nextTask();
  const router = startRouter();
  await nextTask();
  await ready;
  if (drawn) {
    // Over a drawn screen: once the screen's code has loaded (the router's first screen), React takes
    // the drawn page over as it is (hydration), in slices. A page that does not come out the same
    // (the data changed in between) is drawn again by the browser, which React does by itself.
    if (!router.state.initialized) await new Promise<void>((resolve) => router.subscribe((s) => s.initialized && resolve()));
    startTransition(() => {
      hydrateRoot(container, <App />, {
        onRecoverableError: (error) => console.warn('The drawn screen was drawn again in the browser:', error),
      });
    });
  } else {
    const root = createRoot(container);
    startTransition(() => root.render(<App />));
  }
  registerServiceWorker();
}

start().catch((e: unknown) => {
  console.error(e);
  container.removeAttribute('inert');
  createRoot(container).render(<StartupFailure />);
});
