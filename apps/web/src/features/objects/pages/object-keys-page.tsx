import { ActionIcon, Anchor, Text, Tooltip } from '@mantine/core';
import type { TFunction } from 'i18next';
import { Trans } from 'react-i18next';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TObjectKey } from '@crm/contract';
import { href, OBJECT } from '@crm/contract/resources';
import type { DataTableColumn } from '../../../components/data-table.tsx';
import { IconPencil } from '../../../components/icons.ts';
import { formatDate } from '../../../lib/format.ts';
import { useCookieState, useSavedFilter, type ListState } from '../../../lib/list-state.ts';
import { AccountLink, accountPath } from '../../../components/account-columns.tsx';
import { ListScreen, type HeldFilter, type ListTuple } from '../../../kit/list-screen.tsx';
import { KEYS, KEYS_FILTER, KEYS_PER_PAGE_COOKIE, keyHeld, keyPath, keysPerPage, type TKeysFilter } from '../api/object-keys.ts';

const NO_KEYS_FILTER: TKeysFilter = { referenceNumber: '', holder: '' };

/** "Had it: <name>, 04/05/2026 – 06/05/2026", or "Has it: <name>, since …" while that loan is out. */
function heldByText(t: TFunction, l: NonNullable<TObjectKey['heldBy']>): string {
  const holder = l.account ?? t('objectkeys.state.noHolder');
  if (l.givenAway && l.received) return t('objectkeys.heldBy.period', { holder, from: formatDate(l.givenAway), to: formatDate(l.received) });
  if (l.givenAway) return t('objectkeys.heldBy.out', { holder, date: formatDate(l.givenAway) });
  return t('objectkeys.heldBy.plain', { holder });
}

type Loan = NonNullable<TObjectKey['lastLoan']>;
const sameLoan = (a: Loan | null | undefined, b: Loan | null | undefined) =>
  !!a && !!b && a.accountId === b.accountId && a.givenAway === b.givenAway && a.received === b.received;

/**
 * Where the key is. Out: with its holder. In the office (received, and not given away since): it says
 * so, and names the last holder only as that ("last given to …, back on …"), from the key's own
 * holder, kept after the return, or its newest loan's. Read as "Given to: Ivanov" beside an empty
 * given-away date, an agent took the key to be with Ivanov.
 */
function KeyWith({ k }: { k: TObjectKey }) {
  const { t } = useTranslation();
  if (!keyHeld(k))
    return k.accountId != null ? (
      <Text size="sm" data-testid="key-with">
        <Trans i18nKey="objectkeys.list.with" values={{ holder: k.account || `#${k.accountId}` }} components={{ holder: <AccountLink id={k.accountId} name={k.account ?? ''} /> }} />
      </Text>
    ) : null;
  const loan = k.lastLoan;
  const holderId = k.accountId ?? loan?.accountId ?? null;
  const holder = k.accountId != null ? k.account : loan?.account;
  // The loan's return day, when that loan is the key's last holder's and it went out on a day.
  const back = loan && loan.givenAway && loan.received && (k.accountId == null || loan.accountId === k.accountId) ? loan.received : null;
  return (
    <>
      <Text size="sm" data-testid="key-in-office">
        {t('objectkeys.list.inOffice')}
      </Text>
      {holderId != null && !sameLoan(loan, k.heldBy) && (
        <Text size="xs" c="dimmed" data-testid="key-last-holder" style={{ overflowWrap: 'anywhere' }}>
          <Trans
            i18nKey={back ? 'objectkeys.list.lastGiven' : 'objectkeys.list.lastGivenNoDate'}
            values={{ holder: holder || `#${holderId}`, date: formatDate(back) }}
            components={{ holder: <Anchor component={Link} to={accountPath(holderId)} underline="always" inherit /> }}
          />
        </Text>
      )}
    </>
  );
}

/**
 * The register's page and filter as the spec keeps them: the page size in its own cookie (default
 * 10, a saved one wins, one that is not a number means 20), the page in the filter's cookie.
 */
function useKeysState(): { list: ListTuple; filter: HeldFilter<TKeysFilter> } {
  const [savedPerPage, setPerPage] = useCookieState<unknown>(KEYS_PER_PAGE_COOKIE, undefined);
  const perPage = keysPerPage(savedPerPage);
  const [kept, setKept] = useSavedFilter(KEYS_FILTER);
  const { currentPage, ...filter } = kept;
  const state: ListState = { perPage, currentPage, sortBy: '', sortDir: 'asc' };
  return {
    list: [
      state,
      (next) => {
        const s = typeof next === 'function' ? next(state) : next;
        if (s.perPage !== perPage) setPerPage(s.perPage);
        setKept((k) => ({ ...k, currentPage: s.currentPage }));
      },
    ],
    filter: {
      held: [filter, (next) => setKept(({ currentPage: page, ...f }) => ({ ...(typeof next === 'function' ? next(f) : next), currentPage: page }))],
      initial: NO_KEYS_FILTER,
    },
  };
}

/** /ObjectKeys: the keys register, by a property's number or by anyone who held a key. */
export function ObjectKeysPage() {
  const { t } = useTranslation();
  const state = useKeysState();
  return (
    <ListScreen
      {...KEYS}
      saved={{ filter: state.filter }}
      listState={state.list}
      // Each box has its own clear button, which has always had this test id.
      clearTestId="keys-filter-clear-all"
      fields={() => [
        {
          kind: 'text',
          name: 'referenceNumber',
          label: t('objectkeys.filter'),
          placeholder: t('objectkeys.filterPlaceholder'),
          inputMode: 'numeric',
          maxLength: 20,
          prefix: <Text size="sm">#</Text>,
          clear: { label: t('objectkeys.clearFilter'), testId: 'keys-filter-clear' },
          testId: 'keys-filter-ref',
          span: { base: 12, sm: 6, lg: 4 },
        },
        {
          kind: 'text',
          name: 'holder',
          label: t('objectkeys.holderFilter'),
          description: t('objectkeys.holderFilterHint'),
          placeholder: t('objectkeys.holderPlaceholder'),
          maxLength: 100,
          clear: { label: t('objectkeys.clearHolder'), testId: 'keys-filter-holder-clear' },
          span: { base: 12, sm: 6, lg: 5 },
        },
      ]}
      noMatch={({ referenceNumber, holder }) =>
        holder.trim() ? t('objectkeys.emptyHolder', { holder: holder.trim() }) : referenceNumber.trim() ? t('objectkeys.emptyFiltered', { prefix: referenceNumber.trim() }) : t('objectkeys.empty')
      }
      columns={() => keyColumns(t)}
    />
  );
}

function keyColumns(t: TFunction): DataTableColumn<TObjectKey>[] {
  return [
    {
      accessor: 'objectReferenceNumber',
      title: t('objectkeys.col.reference'),
      noWrap: true,
      render: (k) => (
        <Anchor component={Link} to={href(OBJECT.screens.view, { id: k.objectId })} fw={600} size="sm" data-testid="key-object-link">
          #{k.objectReferenceNumber}
        </Anchor>
      ),
    },
    {
      accessor: 'account',
      title: t('objectkeys.col.givenTo'),
      render: (k) => (
        <>
          <KeyWith k={k} />
          {/* Searched by a holder: which of the key's loans was theirs (a past one, mostly). */}
          {k.heldBy && (
            <Text size="xs" c="dimmed" data-testid="key-held-by" style={{ overflowWrap: 'anywhere' }}>
              {heldByText(t, k.heldBy)}
            </Text>
          )}
        </>
      ),
    },
    { accessor: 'received', title: t('objectkeys.col.received'), noWrap: true, render: (k) => formatDate(k.received) },
    { accessor: 'givenAway', title: t('objectkeys.col.givenAway'), noWrap: true, render: (k) => formatDate(k.givenAway) },
    {
      accessor: 'description',
      title: t('objectkeys.col.description'),
      // On a phone the description gives way, so the dates and the edit button stay in view.
      visibleMediaQuery: '(min-width: 48em)',
      render: (k) => (
        <Text size="sm" lineClamp={3} style={{ whiteSpace: 'pre-line' }}>
          {k.description}
        </Text>
      ),
    },
    {
      accessor: 'actions',
      title: t('objectkeys.col.actions'),
      textAlign: 'right',
      card: 'action',
      noWrap: true,
      render: (k) => (
        <Tooltip label={t('common.edit')}>
          <ActionIcon component={Link} to={keyPath(k.id)} variant="subtle" aria-label={t('objectkeys.editKey', { ref: k.objectReferenceNumber })} data-testid="key-edit">
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];
}
