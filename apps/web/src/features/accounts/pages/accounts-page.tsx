import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useNavigate } from 'react-router';
import type { TAccountRow } from '@crm/contract';
import { IconArrowMerge, IconX } from '../../../components/icons.ts';
import { clearBanner, showBanner } from '../../../lib/banner.ts';
import { ACCOUNTS } from '../api/account-lists.ts';
import { AccountList } from '../components/account-list.tsx';
import { createdColumns, modifiedColumns, nameColumn, phoneColumn } from '../../../components/account-columns.tsx';
import { ACCOUNT, href } from '@crm/contract/resources';

/** /Accounts and /AllAccounts: every account, with Add and Merge (tick two rows, then Merge). */
export function AccountsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<TAccountRow[]>([]);
  const [wrongCount, setWrongCount] = useState<number | null>(null);


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
    navigate(href(ACCOUNT.screens.mergePair, { a1: a1!.id, a2: a2!.id }));
  };
  const cancel = () => {
    setSelecting(false);
    setSelected([]);
    clearBanner();
  };

  return (
    <AccountList
      {...ACCOUNTS}
      columns={() => [...createdColumns(t), nameColumn(t), phoneColumn(t), ...modifiedColumns(t)]}
      selection={selecting ? { selected, onChange: setSelected } : undefined}
      actions={
        <>
          <Button variant={selecting ? 'filled' : 'light'} color={selecting ? 'orange' : undefined} leftSection={<IconArrowMerge size={16} />} onClick={merge} data-testid="accounts-merge">
            {selecting ? t('accounts.ui.merge.mergeSelected', { count: selected.length }) : t('accounts.ui.merge.button')}
          </Button>
          {selecting && (
            <Button variant="subtle" leftSection={<IconX size={16} />} onClick={cancel} data-testid="accounts-merge-cancel">
              {t('common.cancel')}
            </Button>
          )}
        </>
      }
    >
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
    </AccountList>
  );
}
