import { Alert, Anchor, Button, Group, Paper, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TFunction } from 'i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { TAccountUpdate } from '@crm/contract';
import { IconArrowMerge } from '../../../components/icons.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { ACCOUNT_FIELD_BY_NAME, ACCOUNT_FIELDS, SPECIALTIES, splitList, type TAccountFieldName } from '../account-fields.ts';
import { accountEditQuery, accountKeys, accountViewQuery, mergeAccounts } from '../api/account.ts';
import { mergeBody } from '../merge-body.ts';
import { showBannerAfterNavigation } from '../../../lib/banner.ts';
import { useGoBack } from '../../../components/go-back.ts';
import { branchText, roleText } from '../components/labels.ts';
import { languageName } from '../components/languages.ts';
import { ApiError } from '../../../lib/api.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { ACCOUNT, href } from '@crm/contract/resources';

/** Fields the merge screen never offers (the spec's list, plus what the server keeps itself). */
const IGNORED = new Set([
  'id', 'filesNew', 'files', 'ownedObjectsReferenceNumbers', 'rentedObjectsReferenceNumbers',
  'createdOn', 'createdBy', 'modifiedOn', 'modifiedBy', 'version', 'displayName', 'signIn',
]);

const hasValue = (v: unknown) => v !== null && v !== undefined && v !== '' && v !== false;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The label of a field on the merge screen. */
function fieldLabel(t: TFunction, f: TAccountFieldName): string {
  if ((SPECIALTIES as readonly string[]).includes(f)) return t(`accounts.ui.specialty.${f}`);
  if (f.startsWith('is') && t(`accounts.ui.kind.${f}`, { defaultValue: '' })) return t(`accounts.ui.kind.${f}`);
  return t(`accounts.ui.field.${f}`);
}

type Option = { value: number | string; text: string };
/** The names of a select list's values (sources, services), from the kept account's edit answer. */
type ListNames = { sources?: Option[]; services?: Option[] };

/** A value as the staff read it. */
function showValue(t: TFunction, f: TAccountFieldName, v: unknown, lists: ListNames = {}): string {
  if (v === null || v === undefined || v === '') return '—';
  const listed = f === 'sourceId' ? lists.sources : f === 'service' ? lists.services : undefined;
  if (listed) return listed.find((o) => String(o.value) === String(v))?.text ?? `#${String(v)}`;
  if (typeof v === 'boolean') return v ? t('common.yes') : t('common.no');
  const type = ACCOUNT_FIELD_BY_NAME.get(f)?.type;
  if (type === 'currency') return formatMoney(v as number);
  if (type === 'date') return formatDate(v as string);
  if (f === 'branchId') return branchText(t, v as number);
  if (f === 'role') return roleText(t, v as string);
  if (f === 'language') return languageName(v as string);
  if (f === 'gender') return t(`accounts.ui.gender.${String(v)}`);
  if (f === 'email' || f === 'phone') return splitList(v as string).join(', ');
  return String(v);
}

type MergeRowData = { field: TAccountFieldName; v1: unknown; v2: unknown; takeDuplicate: boolean };

/** The two accounts of the merge, read fresh, and the names of sources and services. */
function useMergePair(a1Id: number, a2Id: number) {
  const [q1, q2] = useQueries({
    queries: [
      { ...accountViewQuery(a1Id), enabled: valid(a1Id), staleTime: 0 },
      { ...accountViewQuery(a2Id), enabled: valid(a2Id), staleTime: 0 },
    ],
  });
  const a1 = q1.data;
  const a2 = q2.data;
  // The names of sources and services (the view answers their ids).
  const lists = (useQuery({ ...accountEditQuery(a1Id), enabled: valid(a1Id) }).data?.selectLists ?? {}) as ListNames;
  const rows = useMemo<MergeRowData[]>(() => {
    if (!a1 || !a2) return [];
    const r1 = a1 as unknown as Record<string, unknown>;
    const r2 = a2 as unknown as Record<string, unknown>;
    return ACCOUNT_FIELDS.filter((f) => !IGNORED.has(f) && (hasValue(r1[f]) || hasValue(r2[f]))).map((f) => ({
      field: f,
      v1: r1[f],
      v2: r2[f],
      // Take the duplicate's value when the kept record has none, or when the duplicate's is "yes".
      takeDuplicate: r1[f] === null || r1[f] === undefined || r1[f] === '' || r2[f] === true,
    }));
  }, [a1, a2]);
  const refetch = () => Promise.all([q1.refetch(), q2.refetch()]);
  return { a1, a2, lists, rows, loadError: q1.error ?? q2.error, refetch, reading: q1.isFetching || q2.isFetching };
}

const valid = (n: number) => Number.isInteger(n) && n > 0;

function MergeError({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" data-testid="merge-error">{children}</Alert>
  );
}

/** /Accounts/Merge/a1/{a1}/a2/{a2} and /Accounts/Merge?a1=&a2=: keep a1, take chosen values from a2, delete a2. */
export function AccountMergePage() {
  const { t } = useTranslation();
  const params = useParams();
  const [search] = useSearchParams();
  const goBack = useGoBack();
  const client = useQueryClient();
  const a1Id = Number(params.a1 ?? search.get('a1'));
  const a2Id = Number(params.a2 ?? search.get('a2'));
  const { a1, a2, lists, rows, loadError, refetch, reading } = useMergePair(a1Id, a2Id);
  const [choice, setChoice] = useState<Record<string, '1' | '2'>>({});
  const chosen = (f: string, def: boolean) => choice[f] ?? (def ? '2' : '1');

  const merge = useGuardedMutation({
    mutationFn: () => {
      const taken = rows.filter((r) => chosen(r.field, r.takeDuplicate) === '2').map((r) => r.field);
      const account = mergeBody(a1 as unknown as Parameters<typeof mergeBody>[0], a2 as unknown as Record<string, unknown>, taken);
      return mergeAccounts({ account: account as TAccountUpdate, duplicateId: a2!.id });
    },
    meta: { handlesErrors: true },
    // Someone saved one of the two meanwhile: both are read again (the choices made stay), so the
    // next Merge works on what is stored now; the alert above says why.
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409) void refetch();
    },
    onSuccess: () => {
      client.removeQueries({ queryKey: accountKeys.view(a2Id) });
      client.removeQueries({ queryKey: accountKeys.edit(a2Id) });
      void client.invalidateQueries({ queryKey: accountKeys.view(a1Id) });
      void client.invalidateQueries({ queryKey: accountKeys.edit(a1Id) });
      void client.invalidateQueries({ queryKey: ['accounts'] });
      showBannerAfterNavigation('success', t('accounts.ui.merge.done', { name: a1?.displayName ?? '' }));
      goBack();
    },
  });

  if (!valid(a1Id) || !valid(a2Id)) return <MergeError>{t('accounts.ui.merge.missingIds')}</MergeError>;
  if (loadError) return <MergeError>{describeError(loadError).message}</MergeError>;
  if (!a1 || !a2) {
    return <PageLoading />;
  }

  return (
    <Stack gap="sm" data-testid="merge-page">
      <Paper withBorder p="sm">
        <Title order={2} size="h4">{t('accounts.ui.merge.title')}</Title>
        <Text size="sm" c="dimmed">{t('accounts.ui.merge.explain')}</Text>
      </Paper>
      {merge.isError && <MergeError>{describeError(merge.error).message}</MergeError>}
      <Paper withBorder>
        <Table.ScrollContainer minWidth={640}>
          <Table stickyHeader verticalSpacing={6} data-testid="merge-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="22%">{t('accounts.ui.merge.field')}</Table.Th>
                {([a1, a2] as const).map((a, i) => (
                  <Table.Th key={i}>
                    {t(i ? 'accounts.ui.merge.record2' : 'accounts.ui.merge.record1')}:{' '}
                    <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: a.id })} size="sm">{a.displayName}</Anchor>
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <MergeRow key={r.field} row={r} value={chosen(r.field, r.takeDuplicate)} onChoose={(side) => setChoice((c) => ({ ...c, [r.field]: side }))} lists={lists} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" onClick={goBack} data-testid="merge-cancel">{t('common.cancel')}</Button>
        <Button
          color="red.9"
          leftSection={<IconArrowMerge size={16} />}
          // Busy while the two are read again after a refusal: a click then would merge the old versions.
          loading={merge.isPending || reading}
          onClick={() => {
            if (a2?.id) merge.mutate();
          }}
          data-testid="merge-submit"
        >
          {t('accounts.ui.merge.submit')}
        </Button>
      </Group>
    </Stack>
  );
}

/** One field of the two accounts: its label, whether they match, and a radio per account's value. */
function MergeRow({ row: r, value, onChoose, lists }: { row: MergeRowData; value: '1' | '2'; onChoose: (side: '1' | '2') => void; lists: ListNames }) {
  const { t } = useTranslation();
  const match = same(r.v1, r.v2);
  return (
    <Table.Tr bg={match ? 'var(--mantine-color-green-light)' : 'var(--mantine-color-yellow-light)'} data-testid={`merge-row-${r.field}`} data-match={match ? 'true' : 'false'}>
      <Table.Td>
        <Text size="sm" fw={500}>{fieldLabel(t, r.field)}</Text>
        <Text size="xs" fw={500}>{match ? t('accounts.ui.merge.matching') : t('accounts.ui.merge.differing')}</Text>
      </Table.Td>
      {(['1', '2'] as const).map((side) => (
        <Table.Td key={side}>
          <Radio
            name={`merge-${r.field}`}
            value={side}
            checked={value === side}
            onChange={() => onChoose(side)}
            label={showValue(t, r.field, side === '1' ? r.v1 : r.v2, lists)}
            data-testid={`merge-${r.field}-${side}`}
            styles={{ label: { whiteSpace: 'pre-line' } }}
          />
        </Table.Td>
      ))}
    </Table.Tr>
  );
}
