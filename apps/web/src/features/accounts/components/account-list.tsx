import type { TFunction } from 'i18next';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { FilterField } from '../../../kit/filter-fields.tsx';
import { ListScreen, type ListAnswer, type ListContext, type ListScreenProps, type RowOf } from '../../../kit/list-screen.tsx';

/**
 * Every account list's search box: a name, phone or e-mail, or a part of one, in either script (as
 * the global search reads it), with a button in the box that empties it.
 */
const searchField = <F extends { search: string }>(t: TFunction, list: string): FilterField<F> => ({
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
const noMatchOf =
  <F extends { search: string }>(t: TFunction, filters?: { initial: F; text: string }) =>
  (f: F) => {
    const text = String(f.search ?? '').trim();
    const others = filters && JSON.stringify({ ...f, search: '' }) !== JSON.stringify({ ...filters.initial, search: '' });
    return filters && (others || !text) ? filters.text : t('accounts.ui.search.noMatch', { text });
  };

export type AccountListProps<R, F extends { search: string }, A extends ListAnswer<R>> = Omit<ListScreenProps<R, F, A>, 'noMatch' | 'fields'> & {
  /** The filters after the search box, where the list has more. */
  fields?: (c: ListContext<F, A>) => FilterField<F>[];
};

/**
 * An account list (accounts, owners, sources, professionals, staff, clients, partners, as
 * `ACCOUNT.lists` declares them): the search box first, and an empty state that names the search's words.
 */
export function AccountList<F extends { search: string }, A extends ListAnswer<unknown>>({ fields, ...rest }: AccountListProps<RowOf<A>, F, A>) {
  const { t } = useTranslation();
  // A list with filters beside the search declares what it says when they are set too.
  const own = rest.list.noMatch;
  const initial = rest.saved?.filter?.initial;
  return (
    <ListScreen<F, A>
      {...rest}
      fields={(c) => [searchField<F>(t, rest.list.testId), ...(fields?.(c) ?? [])]}
      noMatch={noMatchOf(t, initial && own ? { initial, text: t(own) } : undefined)}
    />
  );
}
