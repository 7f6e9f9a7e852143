import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { DataTableColumn } from './data-table.tsx';
import { formatDateTime } from '../lib/format.ts';
import { phoneLinks } from '../lib/contact-links.ts';
import { ACCOUNT, OBJECT, href } from '@crm/contract/resources';

type Stamped = { createdOn: string; createdBy: string | null; modifiedOn: string; modifiedBy: string | null };
type Named = { id: number; name: string };

export const accountPath = (id: number) => href(ACCOUNT.screens.view, { id });

/** The account's name as a link to its view. */
export function AccountLink({ id, name }: Named) {
  return (
    <Link to={accountPath(id)} className="cell-link mantine-focus-auto" data-testid="account-link">
      {name || `#${id}`}
    </Link>
  );
}

/** Object reference numbers (space-separated) as #number links to the object (opened by `ref` + number). */
export function ObjectRefs({ refs }: { refs: string | null | undefined }) {
  const list = (refs ?? '').split(/\s+/).filter(Boolean);
  if (!list.length) return null;
  return (
    <div className="cell-links">
      {list.map((n) => (
        <Link key={n} to={href(OBJECT.screens.view, { id: `ref${n.replace(/^#/, '')}` })} className="cell-link mantine-focus-auto" data-testid="object-ref">
          #{n.replace(/^#/, '')}
        </Link>
      ))}
    </div>
  );
}

export const nameColumn = <T extends Named>(t: TFunction): DataTableColumn<T> => ({
  accessor: 'name',
  title: t('accounts.ui.col.name'),
  sortable: true,
  card: 'title',
  render: (r) => <AccountLink id={r.id} name={r.name} />,
});

/** Secondary columns give way on phones, so the name stays in view without scrolling sideways. */
const wideScreens = '(min-width: 48em)';

export const createdColumns = <T extends Stamped>(t: TFunction): DataTableColumn<T>[] => [
  { accessor: 'createdOn', title: t('accounts.ui.col.createdOn'), sortable: true, noWrap: true, render: (r) => formatDateTime(r.createdOn) },
  { accessor: 'createdBy', title: t('accounts.ui.col.createdBy'), sortable: true, visibleMediaQuery: wideScreens },
];

export const modifiedColumns = <T extends Stamped>(t: TFunction): DataTableColumn<T>[] => [
  { accessor: 'modifiedOn', title: t('accounts.ui.col.modifiedOn'), sortable: true, noWrap: true, visibleMediaQuery: wideScreens, render: (r) => formatDateTime(r.modifiedOn) },
  { accessor: 'modifiedBy', title: t('accounts.ui.col.modifiedBy'), sortable: true, visibleMediaQuery: wideScreens },
];

export const objectsColumn = <T extends { objectReferenceNumbers: string }>(t: TFunction): DataTableColumn<T> => ({
  accessor: 'objectReferenceNumbers',
  sortKey: 'objects',
  title: t('accounts.ui.col.objects'),
  sortable: true,
  render: (r) => (r.objectReferenceNumbers?.trim() ? <ObjectRefs refs={r.objectReferenceNumbers} /> : null),
});

/** The account's first phone, a tap away on a phone (tel:). */
export const phoneColumn = <T extends { phone: string | null }>(t: TFunction): DataTableColumn<T> => ({
  accessor: 'phone',
  title: t('accounts.ui.col.phone'),
  noWrap: true,
  render: (r) => {
    const [first] = phoneLinks(r.phone);
    if (!first) return null;
    return first.href ? (
      <a href={first.href} className="cell-link mantine-focus-auto" data-testid="account-phone">
        {first.text}
      </a>
    ) : (
      first.text
    );
  },
});
