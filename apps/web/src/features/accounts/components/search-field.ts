import type { TFunction } from 'i18next';
import type { FilterField } from '../../../kit/filter-fields.tsx';

/**
 * Every account list's search box: a name, phone or e-mail, or a part of one, in either script (as
 * the global search reads it), with a button in the box that empties it.
 */
export const searchField = <F extends { search: string }>(t: TFunction, list: string): FilterField<F> => ({
  kind: 'text',
  name: 'search',
  label: t('accounts.ui.search.label'),
  placeholder: t('accounts.ui.search.placeholder'),
  search: true,
  maxLength: 100,
  clear: { label: t('accounts.ui.search.clear'), testId: `${list}-filter-search-clear` },
  span: { base: 12, sm: 8, lg: 4 },
});

/**
 * What an account list says when nothing matches: the search's words when it is all that is set;
 * `filters`, what a list with filters of its own says when they are set too.
 */
export const noMatchOf =
  <F extends { search: string }>(t: TFunction, filters?: { initial: F; text: string }) =>
  (f: F) => {
    const text = String(f.search ?? '').trim();
    const others = filters && JSON.stringify({ ...f, search: '' }) !== JSON.stringify({ ...filters.initial, search: '' });
    return filters && (others || !text) ? filters.text : t('accounts.ui.search.noMatch', { text });
  };
