import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import './app/app.css';
import { initI18n } from './lib/i18n.ts';
import { App, StartupFailure } from './app/app.tsx';

const root = createRoot(document.getElementById('root')!);
initI18n()
  .then(() => root.render(<App />))
  .catch((e: unknown) => {
    console.error(e);
    root.render(<StartupFailure />);
  });
