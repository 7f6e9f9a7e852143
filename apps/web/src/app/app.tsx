import { MantineProvider, Center, Stack, Text, Button } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, useEffect, useMemo, useState } from 'react';
import { TranslationProvider, useTranslation } from '../lib/use-translation.tsx';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api.ts';
import { queryClient } from './query-client.ts';
import { appRouter } from './router.tsx';
import { clearButtonDefaults } from './clear-buttons.ts';
import { choicePills } from './choice-pills.tsx';
import { tookOver } from '../lib/first-paint.ts';
import { theme } from './theme.ts';


// A 401 anywhere: the session is already cleared; forget cached data and go to /login.
setUnauthorizedHandler(() => {
  queryClient.clear();
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname !== '/login') void appRouter().navigate('/login', { replace: true, state: { from: here } });
});

export function App() {
  // One child at every level, as the server's tree (Providers at its root): React's ids stay the same.
  return (
    <TakeOver>
      <Providers>
        <RouterProvider router={appRouter()} />
      </Providers>
    </TakeOver>
  );
}

/**
 * A page drawn by the server is live once the first render has committed and, after it, the menus'
 * and tooltips' targets that the take-over set in a transition (build/mantine-patches.ts): this
 * transition is rendered with theirs, so the page stops being inert only when every menu knows where
 * to open. Renders its children (the same element each time: they are not rendered again).
 */
function TakeOver({ children }: { children: React.ReactNode }) {
  const [committed, setCommitted] = useState(false);
  useEffect(() => {
    startTransition(() => setCommitted(true));
    // Should another transition pending with theirs wait on something, the page is live after 3 s all the same.
    const late = setTimeout(tookOver, 3000);
    return () => clearTimeout(late);
  }, []);
  useEffect(() => {
    if (committed) tookOver();
  }, [committed]);
  return children;
}

/** The theme and the query cache around the router (the browser's, or the server's first paint). */
export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <TranslationProvider>
      <Themed>{children}</Themed>
    </TranslationProvider>
  );
}

function Themed({ children }: { children: React.ReactNode }) {
  // The clear buttons are named in the reader's language: the theme follows a change of language
  // (a new t for each).
  const { t } = useTranslation();
  const themed = useMemo(() => {
    const fields = clearButtonDefaults(t);
    // A multi-select's chosen values: each with its own named × (choice-pills.tsx).
    const MultiSelect = { defaultProps: { ...fields.MultiSelect.defaultProps, renderPill: choicePills(t) } };
    return { ...theme, components: { ...theme.components, ...fields, MultiSelect } };
  }, [t]);
  return (
    // The theme's CSS variables are a stylesheet the build writes (theme-variables.css), not a <style>
    // the provider computes on every start (decision 120).
    <MantineProvider theme={themed} withCssVariables={false}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

/** Shown when the texts could not be loaded; no translation is available yet, so all three languages. */
export function StartupFailure() {
  return (
    <MantineProvider theme={theme} withCssVariables={false}>
      <Center h="100vh" p="md">
        <Stack align="center" maw={480}>
          <Text ta="center">The application could not load. Check your connection and reload the page.</Text>
          <Text ta="center">Η εφαρμογή δεν φορτώθηκε. Ελέγξτε τη σύνδεσή σας και ανανεώστε τη σελίδα.</Text>
          <Text ta="center">Не удалось загрузить приложение. Проверьте подключение и обновите страницу.</Text>
          <Button onClick={() => window.location.reload()}>Reload · Ανανέωση · Обновить</Button>
        </Stack>
      </Center>
    </MantineProvider>
  );
}
