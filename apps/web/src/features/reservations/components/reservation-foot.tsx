import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { IconTrash } from '../../../components/icons.ts';

/** The server's refusals, each by its field's name: two messages run together named neither field. */
export function ReservationFieldErrors({ errors }: { errors: Record<string, string> }) {
  const { t, i18n } = useTranslation();
  if (!Object.keys(errors).length) return null;
  return (
    <Alert color="red" data-testid="reservation-field-errors">
      <Stack gap={2}>
        {Object.entries(errors).map(([k, m]) => {
          const name = i18n.exists(`fields.reservation.${k}`) ? t(`fields.reservation.${k}`) : '';
          return (
            <Text key={k} size="sm">
              {name ? `${name}: ${m}` : m}
            </Text>
          );
        })}
      </Stack>
    </Alert>
  );
}

/** On a phone the form is some 3 700 px tall: its buttons at its foot too, as the income form has them. */
export function ReservationFoot({ editing, onDelete, onCancel, onSave, busy }: { editing: boolean; onDelete: () => void; onCancel: () => void; onSave: () => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" data-testid="reservation-foot">
      {editing ? (
        <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={onDelete} data-testid="reservation-delete-bottom">
          {t('common.delete')}
        </Button>
      ) : (
        <span />
      )}
      <Group gap="xs">
        <Button variant="default" onClick={onCancel} data-testid="reservation-cancel-bottom">
          {t('common.cancel')}
        </Button>
        <Button onClick={onSave} loading={busy} data-testid="reservation-save-bottom">
          {t('common.save')}
        </Button>
      </Group>
    </Group>
  );
}
