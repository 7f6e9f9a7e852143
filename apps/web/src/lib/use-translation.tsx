import i18n, { type i18n as I18n, type TFunction } from 'i18next';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/**
 * The texts of the reader's language for a component: `const { t } = useTranslation()`, as
 * react-i18next's hook is used, but one value for the whole app, made again only when the language
 * or the texts change (decision 011). react-i18next's hook makes a copy of the i18next instance for
 * every component that mounts and each `t(key)` copies the instance's options: a record's screen
 * mounts some 230 of them and asks about 700 texts, which cost the server's first paint about a
 * sixth of its CPU and a phone's first render as much again. Here a text asked without options is
 * looked up once per language and kept.
 */
export type Translation = { t: TFunction; i18n: I18n; ready: boolean; language: string };

function translation(): Translation {
  const fixed = i18n.getFixedT(null, 'translation') as unknown as (...a: unknown[]) => string;
  const plain = new Map<string, string>();
  const t = ((key: unknown, ...rest: unknown[]) => {
    if (rest.length === 0 && typeof key === 'string') {
      let text = plain.get(key);
      if (text === undefined) {
        text = fixed(key);
        plain.set(key, text);
      }
      return text;
    }
    return fixed(key, ...rest);
  }) as unknown as TFunction;
  return { t, i18n, ready: true, language: i18n.language };
}

const TranslationContext = createContext<Translation | null>(null);

/** What a component renders with outside the provider (a unit test's lone component): i18next's own `t`, made again when the language is another. */
let loose: Translation | null = null;

/** Gives every component below it the texts, and draws them again when the language or the texts change. */
export function TranslationProvider({ children }: { children: ReactNode }) {
  const [value, setValue] = useState(translation);
  useEffect(() => {
    const renew = () => setValue(translation());
    i18n.on('languageChanged', renew);
    i18n.store?.on('added', renew);
    i18n.store?.on('removed', renew);
    // A language changed between the first render and this effect.
    if (i18n.language !== value.language) renew();
    return () => {
      i18n.off('languageChanged', renew);
      i18n.store?.off('added', renew);
      i18n.store?.off('removed', renew);
    };
    // Subscribed once: `value` is only read for the language it was made in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>;
}

export function useTranslation(): Translation {
  const value = useContext(TranslationContext);
  if (value) return value;
  if (!loose || loose.language !== i18n.language) loose = { t: i18n.getFixedT(null, 'translation'), i18n, ready: true, language: i18n.language };
  return loose;
}
