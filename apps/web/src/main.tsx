import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
// Mantine's base styles; each component's own styles come with the component (build/mantine-css.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import './app/app.css';
import { initI18n } from './lib/i18n.ts';
import { initVariant } from './lib/variant.ts';
import { App, StartupFailure } from './app/app.tsx';
import { registerServiceWorker, reloadOnMissingCode } from './lib/service-worker.ts';
import { appRouter } from './app/router.tsx';
import { nextTask } from './lib/next-task.ts';

reloadOnMissingCode();

const root = createRoot(document.getElementById('root')!);
// Texts stored from an earlier visit: render now (they are revalidated meanwhile). First visit: the
// texts load while the screen's code does.
// Which app this host is (CRM or payments): known from an earlier visit, or asked alongside.
const texts = initI18n();
const variant = initVariant();
const ready = texts === true && variant === true ? true : Promise.all([texts, variant]);
// Handled below, once the router has started; not reported as unhandled meanwhile.
if (ready !== true) ready.catch(() => undefined);

/**
 * The start in tasks of its own, the browser free to paint and answer between them: the modules'
 * evaluation ends here; then the router (the first screen's code and data start loading); then the
 * first render, itself a React transition that renders in slices (on a phone's slower core all of
 * this was one task of most of a second).
 */
async function start() {
  await nextTask();
  appRouter();
  await nextTask();
  await ready;
  startTransition(() => root.render(<App />));
  registerServiceWorker();
}

start().catch((e: unknown) => {
  console.error(e);
  root.render(<StartupFailure />);
});
