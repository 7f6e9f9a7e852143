import i18n, { type i18n as I18n, type TFunction } from 'i18next';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/**
 * The texts of the reader's language for a component: `const { t } = useTranslation()`, as
 * react-i18next's hook is used, but one value for the whole app, made again only when the language
 * or the texts change (decision 011). react-i18next's hook makes a copy of the i18next instance for
 * every component that mounts and each `t(key)` copies the instance's options: a record's screen
 * mounts some 230 of them and asks about 700 texts, which cost the server's first paint about a
 * sixth of its CPU and a phone's first render as much again. Here a text asked without options is
 * looked up once per language and texts, and kept.
 */
export type Translation = { t: TFunction; i18n: I18n; ready: boolean; generation: number };

/**
 * Counts the changes of language and of texts since the start: a kept text is good only for the
 * generation it was looked up in. Listened to from the first value made after i18next has its store.
 */
let generation = 0;
let listening = false;
const changed = () => {
  generation++;
};
function listen() {
  if (listening || !i18n.store) return;
  listening = true;
  i18n.on('languageChanged', changed);
  i18n.store.on('added', changed);
  i18n.store.on('removed', changed);
}

function translation(): Translation {
  listen();
  const fixed = i18n.getFixedT(null, 'translation') as unknown as (...a: unknown[]) => string;
  const made = generation;
  const plain = new Map<string, string>();
  const t = ((key: unknown, ...rest: unknown[]) => {
    // A `t` kept from before a change (in a callback, a ref) asks i18next itself: the texts now.
    if (rest.length === 0 && typeof key === 'string' && made === generation) {
      let text = plain.get(key);
      if (text === undefined) {
        text = fixed(key);
        plain.set(key, text);
      }
      return text;
    }
    return fixed(key, ...rest);
  }) as unknown as TFunction;
  return { t, i18n, ready: true, generation: made };
}

const TranslationContext = createContext<Translation | null>(null);

/** What a component renders with outside the provider (a unit test's lone component): made again after any change. */
let loose: Translation | null = null;

/** Gives every component below it the texts, and draws them again when the language or the texts change. */
export function TranslationProvider({ children }: { children: ReactNode }) {
  const [value, setValue] = useState(translation);
  useEffect(() => {
    listen();
    const renew = () => setValue((v) => (v.generation === generation ? v : translation()));
    i18n.on('languageChanged', renew);
    i18n.store?.on('added', renew);
    i18n.store?.on('removed', renew);
    // A change between the first render and this effect (texts revalidated meanwhile).
    renew();
    return () => {
      i18n.off('languageChanged', renew);
      i18n.store?.off('added', renew);
      i18n.store?.off('removed', renew);
    };
  }, []);
  return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>;
}

export function useTranslation(): Translation {
  const value = useContext(TranslationContext);
  if (value) return value;
  listen();
  if (!loose || loose.generation !== generation) loose = translation();
  return loose;
}
