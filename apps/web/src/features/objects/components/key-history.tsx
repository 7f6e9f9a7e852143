import { ActionIcon, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TObjectKeyAnswer, TObjectKeyLoan } from '@crm/contract';
import { IconPencil } from '../../../components/icons.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useDialogFrom } from '../../../lib/use-dialog-from.ts';
import { LoanDialog, LoanLine } from './loan-dialog.tsx';

/**
 * The key's loans under its form, newest first, each with Correct: a loan typed wrong (holder,
 * given-away or return date) is corrected on its own, or deleted when it was recorded by mistake.
 */
export function KeyHistory({ keyAnswer, onKeyChanged }: { keyAnswer: TObjectKeyAnswer; onKeyChanged: (next: TObjectKeyAnswer) => void }) {
  const { t } = useTranslation();
  const history = keyAnswer.history;
  // The Correct button the dialog was opened from takes the focus back when it closes.
  const { editing, open, close, replace: setEditing } = useDialogFrom<TObjectKeyLoan>('[data-testid="key-history-title"]');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="key-history-title" data-testid="key-history">
      <Title order={3} size="h5" mb="xs" id="key-history-title" tabIndex={-1} data-testid="key-history-title">
        {t('objectkeys.history.title')}
      </Title>
      {history.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="key-history-empty">
          {t('objectkeys.history.empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {history.map((l) => (
            <li key={l.id} data-testid="key-loan">
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <div style={{ flex: 1, minWidth: 0 }}>
                  <LoanLine loan={l} />
                  <Text size="xs" c="dimmed">
                    {t('objectkeys.history.recorded', { name: l.recordedBy ?? '—', when: formatDateTime(l.recordedOn) })}
                  </Text>
                </div>
                <Tooltip label={t('objectkeys.loan.edit')}>
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    onClick={() => open(l)}
                    aria-label={t('objectkeys.loan.editNamed', { holder: l.account ?? t('objectkeys.state.noHolder'), date: formatDate(l.givenAway ?? l.received) })}
                    data-testid="key-loan-edit"
                  >
                    <IconPencil size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </li>
          ))}
        </Stack>
      )}
      {editing && (
        <LoanDialog
          // A loan changed by someone else while the dialog is open comes in as a new version: the dialog keeps its draft (its own 409 merges).
          key={editing.id}
          loan={editing}
          isCurrent={history[0]?.id === editing.id}
          onClose={close}
          onDone={(next) => {
            onKeyChanged(next);
            close();
          }}
          onConflict={(next) => {
            onKeyChanged(next);
            const now = next.history.find((l) => l.id === editing.id);
            if (now) setEditing(now);
            else close();
          }}
        />
      )}
    </Paper>
  );
}
