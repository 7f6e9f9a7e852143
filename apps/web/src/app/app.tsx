import { MantineProvider, createTheme, Center, Stack, Text, Button } from '@mantine/core';
import { QueryCache, QueryClient, QueryClientProvider, MutationCache } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ApiError, setUnauthorizedHandler } from '../lib/api.ts';
import { reportError } from '../lib/errors.ts';
import { router } from './router.tsx';

const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif',
});

/** Failed reads and writes reach the banner unless a screen handles them (meta.handlesErrors). */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (err, query) => {
      if (!query.meta?.handlesErrors) reportError(err);
    },
  }),
  mutationCache: new MutationCache({
    onError: (err, _v, _c, mutation) => {
      if (!mutation.meta?.handlesErrors) reportError(err);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 15000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError && err.status > 0 && err.status < 500) && count < 2,
    },
  },
});

// A 401 anywhere: the session is already cleared; forget cached data and go to /login.
setUnauthorizedHandler(() => {
  queryClient.clear();
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname !== '/login') void router.navigate('/login', { replace: true, state: { from: here } });
});

export function App() {
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** Shown when the texts could not be loaded; no translation is available yet, so all three languages. */
export function StartupFailure() {
  return (
    <MantineProvider theme={theme}>
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
