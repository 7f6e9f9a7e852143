import { Badge, Button, Stack, Text } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TApiKey } from '@crm/contract';
import { API_KEY_AREAS } from '@crm/contract/integration-constants';
import { WholeListTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useListState } from '../../../lib/list-state.ts';
import { apiKeysQuery, revokeApiKey } from '../api/integrations.ts';
import { ApiKeyForm } from '../components/api-key-form.tsx';
import { SecretOnce } from '../components/secret-once.tsx';

/** The day a key stops working has passed (its expiry is the last day it works, the agency's). */
const expired = (k: TApiKey, today: string) => k.expiresOn < today;

/**
 * /Settings/ApiKeys (office administrators, decision 080): the agency's API keys with their
 * access, maker, last use and expiry; a new one (its key shown once, to copy); revoke.
 */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useListState('ApiKeys', { perPage: 1000, sortBy: '', sortDir: 'desc' });
  const q = useQuery(apiKeysQuery());
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const today = new Date().toISOString().slice(0, 10);
  const revoke = useMutation({
    mutationFn: (k: TApiKey) => revokeApiKey(k.id),
    onSuccess: (k) => showBanner('success', t('apiKeys.ui.revoked', { name: k.name })),
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: ['apiKeys'] }),
  });
  const confirmRevoke = (k: TApiKey) =>
    confirmAction(t, { title: t('apiKeys.ui.revoke'), text: t('apiKeys.ui.revokeConfirm', { name: k.name }), confirm: t('apiKeys.ui.revoke'), testId: 'api-key-revoke-confirm', onConfirm: () => revoke.mutate(k),
    });

  const scopesOf = (k: TApiKey) => {
    const given = API_KEY_AREAS.filter((a) => k.scopes[a] !== 'none');
    return given.length ? given.map((a) => `${t(`apiKeys.area.${a}`)}: ${t(`apiKeys.level.${k.scopes[a]}`)}`).join(' · ') : t('apiKeys.ui.noAccess');
  };
  const stateOf = (k: TApiKey) =>
    k.revokedOn ? (
      <Badge color="gray" variant="light">{t('apiKeys.ui.state.revoked', { date: formatDateTime(k.revokedOn) })}</Badge>
    ) : expired(k, today) ? (
      <Badge color="orange" variant="light">{t('apiKeys.ui.state.expired')}</Badge>
    ) : (
      <Badge color="teal" variant="light">{t('apiKeys.ui.state.active')}</Badge>
    );
  const columns: DataTableColumn<TApiKey>[] = [
    { accessor: 'name', title: t('apiKeys.ui.col.name'), card: 'title', render: (k) => <Text size="sm" fw={500}>{k.name} <Text span size="xs" c="dimmed" ff="monospace">{k.hint}</Text></Text> },
    { accessor: 'scopes', title: t('apiKeys.ui.col.scopes'), render: (k) => <Text size="sm" data-testid="api-key-scopes">{scopesOf(k)}</Text> },
    { accessor: 'createdBy', title: t('apiKeys.ui.col.createdBy'), render: (k) => `${k.createdBy ?? ''} ${formatDate(k.createdOn)}` },
    { accessor: 'lastUsedOn', title: t('apiKeys.ui.col.lastUsed'), noWrap: true, render: (k) => (k.lastUsedOn ? formatDateTime(k.lastUsedOn) : t('apiKeys.ui.never')) },
    { accessor: 'expiresOn', title: t('apiKeys.ui.col.expires'), noWrap: true, render: (k) => formatDate(k.expiresOn) },
    { accessor: 'state', title: t('apiKeys.ui.col.state'), render: stateOf },
    {
      accessor: 'actions',
      title: t('apiKeys.ui.col.actions'),
      card: 'action',
      noWrap: true,
      render: (k) =>
        k.revokedOn ? null : (
          <Button size="xs" variant="light" color="red" onClick={() => confirmRevoke(k)} loading={revoke.isPending && revoke.variables?.id === k.id} data-testid="api-key-revoke" aria-label={`${t('apiKeys.ui.revoke')}: ${k.name}`}>
            {t('apiKeys.ui.revoke')}
          </Button>
        ),
    },
  ];
  const add = (
    <Button onClick={() => setAdding(true)} data-testid="api-key-new">
      {t('apiKeys.ui.new')}
    </Button>
  );
  return (
    <Stack gap="md" maw={1400}>
      <ListHeader title={t('title.apiKeys')} count={q.data?.items.length} testId="api-keys">
        {add}
      </ListHeader>
      <Text size="sm" c="dimmed">
        {t('apiKeys.ui.intro')}
      </Text>
      {q.isError && <Text c="red">{describeError(q.error).message}</Text>}
      <WholeListTable
        testId="api-keys-table"
        list={list}
        query={q}
        columns={columns}
        empty={{ text: t('apiKeys.ui.empty') }}
      />
      <ApiKeyForm
        opened={adding}
        onClose={() => setAdding(false)}
        onCreated={(s) => {
          setAdding(false);
          setSecret(s);
          void qc.invalidateQueries({ queryKey: ['apiKeys'] });
        }}
      />
      <SecretOnce title={t('apiKeys.ui.created.title')} hint={t('apiKeys.ui.created.hint')} secret={secret} onClose={() => setSecret(null)} testId="api-key-secret" />
    </Stack>
  );
}
