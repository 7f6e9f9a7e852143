import { ActionIcon, Anchor, Button, CloseButton, Grid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TObjectKey } from '@crm/contract';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { FilterCard } from '../../../components/filter-card.tsx';
import { IconPencil, IconPlus } from '../../../components/icons.ts';
import { formatDate } from '../../../lib/format.ts';
import { useCookieState, useSavedFilter, type ListState } from '../../../lib/list-state.ts';
import { AccountLink, accountPath } from '../../../components/account-columns.tsx';
import { KEYS_FILTER, KEYS_PER_PAGE_COOKIE, keyHeld, keysPerPage, objectKeysQuery } from '../api/object-keys.ts';

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

export function ObjectKeysPage() {
  const { t } = useTranslation();
  const [savedPerPage, setPerPage] = useCookieState<unknown>(KEYS_PER_PAGE_COOKIE, undefined);
  const perPage = keysPerPage(savedPerPage);
  const [filter, setFilter] = useSavedFilter(KEYS_FILTER);
  const [prefix] = useDebouncedValue(filter.referenceNumber.trim(), SEARCH_DEBOUNCE_MS);
  const [holder] = useDebouncedValue(filter.holder.trim(), SEARCH_DEBOUNCE_MS);
  const q = useQuery(objectKeysQuery({ referenceNumber: prefix, holder, perPage, currentPage: filter.currentPage }));

  const list: [ListState, (next: ListState | ((prev: ListState) => ListState)) => void] = [
    { perPage, currentPage: filter.currentPage, sortBy: '', sortDir: 'asc' },
    (next) => {
      const s = typeof next === 'function' ? next({ perPage, currentPage: filter.currentPage, sortBy: '', sortDir: 'asc' }) : next;
      if (s.perPage !== perPage) setPerPage(s.perPage);
      setFilter((f) => ({ ...f, currentPage: s.currentPage }));
    },
  ];
  const setPrefix = (referenceNumber: string) => setFilter((f) => ({ ...f, referenceNumber, currentPage: 1 }));
  const setHolder = (text: string) => setFilter((f) => ({ ...f, holder: text, currentPage: 1 }));

  const columns: DataTableColumn<TObjectKey>[] = [
    {
      accessor: 'objectReferenceNumber',
      title: t('objectkeys.col.reference'),
      noWrap: true,
      render: (k) => (
        <Anchor component={Link} to={`/Objects/View/${k.objectId}`} fw={600} size="sm" data-testid="key-object-link">
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
          <ActionIcon component={Link} to={`/ObjectKeys/${k.id}`} variant="subtle" aria-label={t('objectkeys.editKey', { ref: k.objectReferenceNumber })} data-testid="key-edit">
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <ListHeader title={t('title.keys')} count={q.data?.totalRows} testId="keys">
        <Button component={Link} to="/ObjectKeys/new" leftSection={<IconPlus size={16} />} data-testid="keys-add">
          {t('objectkeys.add')}
        </Button>
      </ListHeader>
      <FilterCard active={!!filter.referenceNumber || !!filter.holder} testId="keys-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
            <TextInput
              label={t('objectkeys.filter')}
              placeholder={t('objectkeys.filterPlaceholder')}
              value={filter.referenceNumber}
              onChange={(e) => setPrefix(e.currentTarget.value)}
              inputMode="numeric"
              maxLength={20}
              leftSection={<Text size="sm">#</Text>}
              rightSection={
                filter.referenceNumber ? <CloseButton aria-label={t('objectkeys.clearFilter')} onClick={() => setPrefix('')} data-testid="keys-filter-clear" /> : null
              }
              data-testid="keys-filter-ref"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 5 }}>
            <TextInput
              label={t('objectkeys.holderFilter')}
              description={t('objectkeys.holderFilterHint')}
              placeholder={t('objectkeys.holderPlaceholder')}
              value={filter.holder}
              onChange={(e) => setHolder(e.currentTarget.value)}
              maxLength={100}
              rightSection={filter.holder ? <CloseButton aria-label={t('objectkeys.clearHolder')} onClick={() => setHolder('')} data-testid="keys-filter-holder-clear" /> : null}
              data-testid="keys-filter-holder"
            />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="keys-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        empty={{ text: holder ? t('objectkeys.emptyHolder', { holder }) : prefix ? t('objectkeys.emptyFiltered', { prefix }) : t('objectkeys.empty') }}
      />
    </Stack>
  );
}
