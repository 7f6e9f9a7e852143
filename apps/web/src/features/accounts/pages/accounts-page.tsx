import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TAccountRow } from '@crm/contract';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconArrowMerge, IconPlus, IconX } from '../../../components/icons.ts';
import { clearBanner, showBanner } from '../../../lib/banner.ts';
import { useSavedList } from '../../../lib/list-state.ts';
import { ACCOUNT_LIST, accountsQuery } from '../api/account-lists.ts';
import { createdColumns, modifiedColumns, nameColumn } from '../../../components/account-columns.tsx';

/** /Accounts and /AllAccounts: every account, with Add and Merge (tick two rows, then Merge). */
export function AccountsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useSavedList(ACCOUNT_LIST);
  const q = useQuery(accountsQuery(list[0]));
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<TAccountRow[]>([]);
  const [wrongCount, setWrongCount] = useState<number | null>(null);

  const columns: DataTableColumn<TAccountRow>[] = [...createdColumns(t), nameColumn(t), ...modifiedColumns(t)];

  const merge = () => {
    if (!selecting) {
      setSelecting(true);
      setSelected([]);
      showBanner('warning', t('accounts.ui.merge.selectTwo'));
      return;
    }
    if (selected.length !== 2) {
      setWrongCount(selected.length);
      return;
    }
    const [a1, a2] = selected;
    navigate(`/Accounts/Merge/a1/${a1!.id}/a2/${a2!.id}`);
  };
  const cancel = () => {
    setSelecting(false);
    setSelected([]);
    clearBanner();
  };

  const add = (
    <Button component={Link} to="/Accounts/Add" leftSection={<IconPlus size={16} />} data-testid="accounts-add">
      {t('accounts.ui.accounts.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.accounts')} count={q.data?.totalRows} testId="accounts">
        {add}
        <Button variant={selecting ? 'filled' : 'light'} color={selecting ? 'orange' : undefined} leftSection={<IconArrowMerge size={16} />} onClick={merge} data-testid="accounts-merge">
          {selecting ? t('accounts.ui.merge.mergeSelected', { count: selected.length }) : t('accounts.ui.merge.button')}
        </Button>
        {selecting && (
          <Button variant="subtle" leftSection={<IconX size={16} />} onClick={cancel} data-testid="accounts-merge-cancel">
            {t('common.cancel')}
          </Button>
        )}
      </ListHeader>
      <DataTable
        testId="accounts-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        selection={selecting ? { selected, onChange: setSelected } : undefined}
        empty={{ text: t('accounts.ui.accounts.empty'), action: add }}
      />
      <Modal opened={wrongCount !== null} onClose={() => setWrongCount(null)} closeButtonProps={{ 'aria-label': t('common.close') }} title={t('title.merge')} centered>
        <Stack>
          {/* count picks the plural form ("1 account"); n keeps a text the office wrote before them working. */}
          <Text data-testid="merge-count-dialog">{t('accounts.ui.merge.wrongCount', { count: wrongCount ?? 0, n: wrongCount ?? 0 })}</Text>
          <Group justify="flex-end">
            <Button onClick={() => setWrongCount(null)} data-testid="merge-count-ok">
              {t('common.ok')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
