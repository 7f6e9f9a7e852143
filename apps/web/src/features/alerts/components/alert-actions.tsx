import { ActionIcon, Button, Group, Menu, Tooltip } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { DeleteMenuItem } from '../../../components/delete-menu-item.tsx';
import { IconArrowLeft, IconDots, IconTrash } from '../../../components/icons.ts';
import { useMedia } from '../../../lib/first-paint.ts';

type Actions = { onBack: () => void; onUnread: () => void; unreading: boolean; onDelete: () => void; onSave: () => void; saving: boolean };

/**
 * An alert's buttons under its notes: Back to list and Mark as unread, Delete and Save notes. On a
 * phone the four took a line each: Back is an icon, the rarer Mark as unread and Delete are in the
 * Actions menu (as on a record's form), Save stays a button.
 */
export function AlertActions(p: Actions) {
  const { t } = useTranslation();
  const phone = useMedia('(max-width: 35.99em)', false);
  if (phone) return <PhoneActions {...p} />;
  return (
    <Group justify="space-between" gap="sm">
      <Group gap="sm">
        <Button variant="default" onClick={p.onBack} data-testid="alert-back">
          {t('alerts.backToList')}
        </Button>
        <Button variant="light" onClick={p.onUnread} loading={p.unreading} data-testid="alert-mark-unread">
          {t('alerts.markUnread')}
        </Button>
      </Group>
      <Group gap="sm">
        <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={p.onDelete} data-testid="alert-delete">
          {t('common.delete')}
        </Button>
        <Button onClick={p.onSave} loading={p.saving} data-testid="alert-save-notes">
          {t('alerts.saveNotes')}
        </Button>
      </Group>
    </Group>
  );
}

function PhoneActions(p: Actions) {
  const { t } = useTranslation();
  const menuButton = useRef<HTMLButtonElement>(null);
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Group gap="xs" wrap="nowrap">
        <Tooltip label={t('alerts.backToList')}>
          <ActionIcon variant="default" size={36} onClick={p.onBack} aria-label={t('alerts.backToList')} data-testid="alert-back">
            <IconArrowLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Tooltip label={t('accounts.ui.view.actions')}>
              <ActionIcon ref={menuButton} variant="default" size={36} aria-label={t('accounts.ui.view.actions')} data-testid="alert-actions">
                <IconDots size={18} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={p.onUnread} data-testid="alert-mark-unread">
              {t('alerts.markUnread')}
            </Menu.Item>
            <DeleteMenuItem onClick={p.onDelete} returnFocusTo={menuButton} testId="alert-delete">
              {t('common.delete')}
            </DeleteMenuItem>
          </Menu.Dropdown>
        </Menu>
      </Group>
      {/* Under the notes, "Save" says enough ("Αποθήκευση σημειώσεων" was cut at 360 px). */}
      <Button onClick={p.onSave} loading={p.saving} data-testid="alert-save-notes">
        {t('common.save')}
      </Button>
    </Group>
  );
}
