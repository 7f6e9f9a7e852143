/**
 * The first paint of a screen, drawn on the server (decision 054). A signed-in reader who opens an
 * address (a bookmark, a link, a reload) gets the screen already drawn in the HTML, with the data it
 * shows, instead of an empty page that draws itself once ~300 KB of script have arrived and run: on
 * a phone on mobile data that is the difference between seeing the day's agenda in about a second
 * and in three. The drawing is the app's own components (the same routes, the same queries), run in
 * a worker thread of the server (apps/server/src/ssr/) with the reader's session; the browser then
 * starts the app as always and replaces the drawing with the live screen in one step, its queries
 * answered from the data sent with the page.
 *
 * Runs in a worker that gives it `window`, `document`, `localStorage` and `location` stand-ins
 * (ssr/worker.mjs), one screen at a time: the app's stores (session, variant, texts, query cache)
 * are this request's while it runs.
 */
import { prerenderToNodeStream } from 'react-dom/static';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { dehydrate } from '@tanstack/react-query';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/el';
import 'dayjs/locale/ru';
import 'dayjs/locale/en-gb';
import { cultureOf, type TCulture } from '@crm/contract/constants';
import { SESSION, SHELL, urlOf, type AnswerOf, type Call, type RequestOf } from '@crm/contract/resources';
import { Providers } from './app/app.tsx';
import { appRoutes } from './app/router.tsx';
import { queryClient } from './app/query-client.ts';
import { sessionEndedStore, sessionStore } from './lib/session.ts';
import { bannerStore } from './lib/banner.ts';
import { variantStore } from './lib/variant.ts';
import { setAgencyZone } from './lib/agency-clock.ts';
import { DAYJS_LOCALE, I18N_OPTIONS } from './lib/i18n.ts';
import { assumedMatches, setAssumedWidth } from './lib/first-paint.ts';

// Media queries answered for the width the screen is drawn for.
(globalThis as unknown as { matchMedia: (q: string) => unknown }).matchMedia = (q: string) => ({
  matches: assumedMatches(q),
  media: q,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  addListener: () => undefined,
  removeListener: () => undefined,
});

export type FirstPaintInput = {
  /** The address the reader's browser used (http://host): the app's API calls are made to this server under that name (the worker's fetch). */
  origin: string;
  /** The address asked for (path and query). */
  url: string;
  /** The reader's session token (the page cookie) and their cookies (the language, the lists' settings). */
  token: string;
  cookie: string;
  /** The browser's languages: the language until the reader has one in the cookie (as index.html guesses it). */
  acceptLanguage?: string;
  /** The screen width to draw for (a phone's or a desktop's, as the server guessed it). */
  width: number;
};

/** `redirect`: the screen is only a way to this address (html empty): the server answers with it. */
export type FirstPaint = { html: string; state: unknown; config: { timeZone?: string; clock?: unknown }; width: number; user: string; lang: TCulture; title: string; redirect?: string };

type Stand = { setCookie: (c: string) => void; setLocation: (href: string) => void };
const stand = (globalThis as unknown as { __firstPaint: Stand }).__firstPaint;

const TEXTS_TTL = 30_000;
const texts = new Map<TCulture, { at: number; texts: Record<string, string> }>();
/** The copy of each language's texts i18next holds. */
const given = new Map<TCulture, Record<string, string>>();

/** A GET call of the API's, asked of this server with the reader's token and language: its answer, or null when refused. */
async function get<C extends Call>(origin: string, call: C, request: Pick<RequestOf<C>, 'params' | 'query'>, token?: string, culture?: TCulture): Promise<AnswerOf<C> | null> {
  const res = await fetch(origin + urlOf(call, request), {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(culture ? { 'Accept-Language': culture } : {}) },
  });
  if (!res.ok) return null;
  return (await res.json()) as AnswerOf<C>;
}

async function textsOf(origin: string, culture: TCulture): Promise<Record<string, string> | null> {
  const kept = texts.get(culture);
  if (kept && Date.now() - kept.at < TEXTS_TTL) return kept.texts;
  const rows = await get(origin, SHELL.calls.localization, { query: { culture } });
  if (!rows) return null;
  const t: Record<string, string> = {};
  for (const r of rows) t[r.key] = r.text;
  texts.set(culture, { at: Date.now(), texts: t });
  return t;
}

const cookieValue = (cookie: string, name: string) => {
  const m = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(cookie);
  try {
    return m ? decodeURIComponent(m[1]!) : undefined;
  } catch {
    return undefined;
  }
};

/** Queries in the cache still being asked. */
const settle = async () => {
  for (let i = 0; i < 300 && queryClient.isFetching() > 0; i++) await new Promise((r) => setTimeout(r, 5));
};

/**
 * The screen at `url` drawn for the reader, or null when it is not to be drawn here (no valid
 * session, the payments app, a redirect, a screen that failed): the browser then starts as it
 * always has.
 */
export async function renderFirstPaint(input: FirstPaintInput): Promise<FirstPaint | null> {
  const { origin, token } = input;
  stand.setCookie(input.cookie);
  stand.setLocation(origin + input.url);

  const first = /(^|,)\s*(el|ru|en)/i.exec(input.acceptLanguage ?? '')?.[2]?.toLowerCase();
  const language = cookieValue(input.cookie, 'language') ?? first;
  const culture = cultureOf(language === 'el' || language === 'ru' ? language : 'en-UK');
  const [me, config, t] = await Promise.all([
    get(origin, SESSION.calls.me, {}, token, culture),
    get(origin, SHELL.calls.config, {}),
    textsOf(origin, culture),
  ]);
  if (!me || !config || !t) return null;
  // The payments app (its host, or a client's sign-in) is drawn by the browser alone.
  if (config.variant === 'payments' || !me.userroles.some((r) => r === 'admin' || r === 'employee')) return null;

  // This request's stores: the worker draws one screen at a time. Nothing of the screen drawn before
  // stays: its banner, its data, its session.
  bannerStore.set(null);
  sessionEndedStore.set(false);
  setAssumedWidth(input.width);
  stand.setCookie(input.cookie);
  stand.setLocation(origin + input.url);
  sessionStore.set({ ...me, token, expiresOn: new Date(Date.now() + 3600_000).toISOString() });
  variantStore.set('crm');
  setAgencyZone(config.timeZone, config.clock);
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({ ...I18N_OPTIONS, resources: {}, lng: culture });
  }
  // The texts are given to i18next again only when they are another copy (every 30 s at most):
  // adding a whole language's texts copies them key by key.
  if (given.get(culture) !== t) {
    i18n.addResourceBundle(culture, 'translation', t, true, true);
    given.set(culture, t);
  }
  await i18n.changeLanguage(culture);
  dayjs.locale(DAYJS_LOCALE[culture]);
  queryClient.clear();
  // A read that fails is not tried again here (the browser would): the screen is then not drawn.
  queryClient.setDefaultOptions({ ...queryClient.getDefaultOptions(), queries: { ...queryClient.getDefaultOptions().queries, retry: false } });

  const handler = createStaticHandler(appRoutes());
  const context = await handler.query(new Request(origin + input.url));
  if (context instanceof Response || context.statusCode !== 200) return null;
  // A screen that is only a way to another ("/" to the day's home): the server answers with the
  // address to go to, instead of drawing an empty page the browser would then leave (no <Navigate>
  // on a drawn first render).
  const redirect = (context.matches.at(-1)?.route.handle as { serverRedirect?: string } | undefined)?.serverRedirect;
  if (redirect) return { html: '', state: null, config: {}, width: input.width, user: me.username, lang: culture, title: '', redirect };
  await settle();
  const router = createStaticRouter(handler.dataRoutes, context);
  const tree = (
    <Providers>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </Providers>
  );
  // Drawn in two steps. First whole, waiting for what the screen loads as it goes (its lazy pieces),
  // and again once what it asked for while being drawn has come (a record's sections); up to three
  // times. Then, unless the last of those came out whole, drawn once more in one go, everything now
  // at hand: plain HTML, without the scripts a drawing that waited would need to put its late parts
  // in place (the page runs no inline script).
  // The last round's drawing, when it came out whole (nothing it waited for came late): the page as
  // it is, without drawing it again (issue 50: the second drawing was up to half a page's CPU).
  let whole: string | null = null;
  // Any error met while drawing (a component that needs the browser, a part that failed) gives the
  // drawing up: the browser draws the screen (the worker logs the error). A boundary's fallback drawn
  // in its place would hide it.
  const errors: unknown[] = [];
  const onError = (error: unknown) => void errors.push(error);
  const failed = () => {
    if (errors.length) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  };
  for (let round = 0; round < 3; round++) {
    const { prelude } = await prerenderToNodeStream(tree, { onError });
    // Decoded whole: a letter's bytes may be split between two parts.
    const parts: Uint8Array[] = [];
    for await (const part of prelude) parts.push(typeof part === 'string' ? new TextEncoder().encode(part) : (part as Uint8Array));
    const drawing = new TextDecoder().decode(Buffer.concat(parts));
    failed();
    const missing = queryClient
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.status === 'pending' && q.state.fetchStatus === 'idle' && q.options.queryFn && (q.options as { enabled?: unknown }).enabled !== false);
    if (!missing.length) {
      // A part that came late is put in place by a script React adds (<template> and <script>): drawn again whole.
      if (!/<template\b|<script\b/i.test(drawing)) whole = drawing;
      break;
    }
    await Promise.all(missing.map((q) => queryClient.prefetchQuery(q.options as never)));
    await settle();
  }
  // (The same tree was prerendered above, with every error reported: renderToString reports none.)
  const html = whole ?? renderToString(tree);
  // Nothing drawn (a screen that only sends elsewhere, as / does), or a screen that met an error:
  // the browser draws it, as it always could.
  if (!html.trim() || bannerStore.get() !== null || sessionEndedStore.get()) {
    bannerStore.set(null);
    return null;
  }
  const state = dehydrate(queryClient, { shouldDehydrateQuery: (q) => q.state.status === 'success' });
  const handle = context.matches.at(-1)?.route.handle as { title?: string } | undefined;
  // The tab's name as the shell writes it once the screen is live (shell/layout.tsx).
  const title = handle?.title ? `${i18n.t(handle.title)} · ${i18n.t('app.brand')}` : '';
  return { html, state, config: { timeZone: config.timeZone, clock: config.clock }, width: input.width, user: me.username, lang: culture, title };
}
