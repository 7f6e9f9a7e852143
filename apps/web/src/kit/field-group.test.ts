import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import type { TFieldDescriptionOf } from '@crm/contract/field-description';
import type { Draft } from '../components/fields/field-values.ts';
import type { DescribedForm } from './field-group.tsx';

// The inputs' modules read the page's start-up settings and follow the other tabs' sign-ins: here, a page with none.
Object.assign(globalThis, { document: { cookie: '' }, window: Object.assign(new EventTarget(), { location: { pathname: '/' } }), localStorage: { getItem: () => null, setItem() {}, removeItem() {} } });
const { DescribedInput } = await import('./field-group.tsx');
// No texts loaded: a text shows as its key.
await i18n.init({ lng: 'en', fallbackLng: false, keySeparator: false, nsSeparator: false, resources: { en: { translation: {} } } });

/** A described field's input as a record form draws it, from the field's description and the form's state. */
const drawn = (d: TFieldDescriptionOf, f: Partial<DescribedForm> & { drafts: Record<string, Draft> }, extra: Record<string, unknown> = {}) =>
  renderToStaticMarkup(
    createElement(MantineProvider, null, createElement(DescribedInput, { d, f: { set: () => {}, errors: {}, ...f }, label: 'Street', options: [], testId: 'field-street', ...extra })),
  );

const street: TFieldDescriptionOf = { name: 'street', type: 'text', group: 'address', max: 120 };

describe('a described field on a record form', () => {
  it('shows its label, its draft, its limit and its error', () => {
    const markup = drawn(street, { drafts: { street: 'Egnatia 12' }, errors: { street: 'Too long' } });
    expect(markup).toContain('Street');
    expect(markup).toContain('value="Egnatia 12"');
    expect(markup).toContain('maxLength="120"');
    expect(markup).toContain('Too long');
    expect(markup).toContain('data-testid="field-street"');
  });

  it('under a value someone else saved over this user\'s, offers this user\'s back', () => {
    const markup = drawn(street, { drafts: { street: 'Tsimiski 3' }, yoursReplaced: (name) => (name === 'street' ? 'Egnatia 12' : undefined) });
    expect(markup).toContain('data-testid="field-street-replaced"');
    expect(markup).toContain('data-testid="field-street-put-back"');
    expect(markup).toContain('value="Tsimiski 3"');
  });

  it('without a replaced value, shows the description the form gives (a deposit\'s warning)', () => {
    const markup = drawn(street, { drafts: { street: '' } }, { description: 'Check the amount' });
    expect(markup).toContain('Check the amount');
    expect(markup).not.toContain('field-street-replaced');
  });

  it('a date is typed as the interface writes it, with its test id', () => {
    const markup = drawn({ name: 'startDate', type: 'date', group: 'main' }, { drafts: { startDate: '2026-03-01' } }, { testId: 'lead-startDate', label: 'Start' });
    expect(markup).toContain('Start');
    expect(markup).toContain('data-testid="lead-startDate"');
  });

  // Every kind of input keeps the note (a distance over a kilometre beside its reading in km; flags, yes/no/not set, a date and time).
  it.each([
    ['text', 'Tsimiski 3', 'Egnatia 12'],
    ['date', '2026-03-01', '2026-04-01'],
    ['distance', 1500, 800],
    ['distance', 500, 800],
    ['flag-enum', ['1'], ['2']],
    ['boolNullable', 'true', 'false'],
    ['date-time', ['2026-03-01', '10:00'], ['2026-03-02', '11:00']],
  ] as const)('a %s field whose value (%j) replaced this user\'s offers it back', (type, now, was) => {
    const d = { name: 'f', type, group: 'main' } as TFieldDescriptionOf;
    const markup = drawn(d, { drafts: { f: now as Draft }, yoursReplaced: (name) => (name === 'f' ? (was as Draft) : undefined) }, { testId: 'field-f' });
    expect(markup).toContain('data-testid="field-f-replaced"');
    expect(markup).toContain('data-testid="field-f-put-back"');
  });
});
