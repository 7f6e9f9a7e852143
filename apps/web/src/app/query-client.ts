import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api.ts';
import { reportError } from '../lib/errors.ts';
import { onLanguageSwitched } from '../lib/i18n.ts';

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

/**
 * A switch of language reads again what the screen shows from the server: the names it supplies
 * (a lead's stage, types, places, a property's title) are in the reader's language (Accept-Language).
 * Every query is marked stale and the ones on the screen are fetched again at once, the others when
 * next shown. The editors and forms start from their own state, so what is being typed stays.
 */
onLanguageSwitched(() => void queryClient.invalidateQueries());
