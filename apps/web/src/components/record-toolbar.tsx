import { Alert, Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { IconTrash } from './icons.ts';

/**
 * The head of a record page with view, edit and create modes (deals, reservations, viewings, as
 * the spec describes them): the title; in view Back and Edit; in edit Delete, Cancel (back to the
 * view) and Save; in create Cancel and Save; under it the form's error, if any. `testId` prefixes
 * the buttons' test ids (`deal-edit`, `deal-delete`, `deal-cancel`, `deal-save`, `deal-form-error`).
 */
export function RecordToolbar(p: {
  title: ReactNode;
  mode: 'view' | 'edit' | 'create';
  backText: string;
  onBack: () => void;
  /** The record's route and id: Edit opens `${route}/Edit/${id}`, Cancel in edit mode `${route}/${id}` (in create mode it goes back). */
  route: string;
  id: number | null | undefined;
  onDelete: () => void;
  onSave: () => void;
  busy: boolean;
  error: string | null;
  testId: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <Group justify="space-between">
        {p.title}
        <Group gap="xs">
          {p.mode === 'view' ? (
            <>
              <Button variant="default" onClick={p.onBack}>
                {p.backText}
              </Button>
              <Button component={Link} to={`${p.route}/Edit/${p.id}`} data-testid={`${p.testId}-edit`}>
                {t('common.edit')}
              </Button>
            </>
          ) : (
            <>
              {p.mode === 'edit' && (
                <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={p.onDelete} data-testid={`${p.testId}-delete`}>
                  {t('common.delete')}
                </Button>
              )}
              <Button variant="default" onClick={() => (p.mode === 'edit' ? navigate(`${p.route}/${p.id}`) : p.onBack())} data-testid={`${p.testId}-cancel`}>
                {t('common.cancel')}
              </Button>
              <Button onClick={p.onSave} loading={p.busy} data-testid={`${p.testId}-save`}>
                {t('common.save')}
              </Button>
            </>
          )}
        </Group>
      </Group>
      {p.error && (
        <Alert color="red" data-testid={`${p.testId}-form-error`}>
          {p.error}
        </Alert>
      )}
    </>
  );
}
