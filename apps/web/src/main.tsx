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

reloadOnMissingCode();
registerServiceWorker();

const root = createRoot(document.getElementById('root')!);
// Texts stored from an earlier visit: render now (they are revalidated meanwhile). First visit: the
// texts load while the screen's code does.
// Which app this host is (CRM or payments): known from an earlier visit, or asked alongside.
const texts = initI18n();
const variant = initVariant();
const ready = texts === true && variant === true ? true : Promise.all([texts, variant]);
// The first render is a transition: React renders it in slices and lets the browser breathe in
// between (a phone's slower core otherwise spent one long task of a second on it).
const render = () => startTransition(() => root.render(<App />));
if (ready === true) render();
else
  ready
    .then(render)
    .catch((e: unknown) => {
      console.error(e);
      root.render(<StartupFailure />);
    });
