import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import i18n from 'i18next';
import { TranslationProvider, useTranslation, type Translation } from './use-translation.tsx';

await i18n.init({
  lng: 'en',
  fallbackLng: false,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  resources: { en: { translation: { hello: 'Hello', count: '{{n}} rows' } }, el: { translation: { hello: 'Γεια', count: '{{n}} εγγραφές' } } },
});

/** The value a component gets, inside the provider (as the app renders) or alone. */
function drawn(inProvider: boolean): Translation {
  let got: Translation | undefined;
  const Probe = () => {
    got = useTranslation();
    return createElement('span', null, got.t('hello'));
  };
  renderToString(inProvider ? createElement(TranslationProvider, null, createElement(Probe)) : createElement(Probe));
  return got!;
}

describe('one translation value for the app', () => {
  it('a t kept from before a change of language or of texts says the texts of now', async () => {
    await i18n.changeLanguage('en');
    const kept = drawn(true).t;
    expect(kept('hello')).toBe('Hello');
    await i18n.changeLanguage('el');
    expect(kept('hello')).toBe('Γεια');
    expect(kept('count', { n: 3 })).toBe('3 εγγραφές');
    i18n.addResourceBundle('el', 'translation', { hello: 'Καλημέρα' }, true, true);
    expect(kept('hello')).toBe('Καλημέρα');
    // A value made now looks each text up once, and says the same.
    const now = drawn(true).t;
    expect(now('hello')).toBe('Καλημέρα');
    expect(now('hello')).toBe('Καλημέρα');
  });

  it('a component outside the provider gets the language and texts of now', async () => {
    await i18n.changeLanguage('en');
    expect(drawn(false).t('hello')).toBe('Hello');
    await i18n.changeLanguage('el');
    expect(drawn(false).t('hello')).toBe('Καλημέρα');
    i18n.addResourceBundle('el', 'translation', { hello: 'Γεια σας' }, true, true);
    expect(drawn(false).t('hello')).toBe('Γεια σας');
  });
});
