import { ActionIcon, Button, Group, Menu, Title, Tooltip } from '@mantine/core';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { Link, useNavigate } from 'react-router';
import { IconDots, IconTrash } from './icons.ts';
import { DeleteMenuItem } from './delete-menu-item.tsx';
import { useMedia } from '../lib/first-paint.ts';
import { FailureAlert } from './failure-alert.tsx';
import { useGoBack } from './go-back.ts';

/**
 * The head of a record page with view, edit and create modes (deals, reservations, viewings, as
 * the spec describes them): the title; in view Back and Edit; in edit Delete, Cancel (back to the
 * view) and Save; in create Cancel and Save; under it the form's error, if any. `testId` prefixes
 * the buttons' test ids (`deal-edit`, `deal-delete`, `deal-cancel`, `deal-save`, `deal-form-error`).
 *
 * On a phone Delete, the rarer action, is an item of an "Actions" menu (⋯, named and with a
 * tooltip), as on the lead's and the account's pages: the three buttons in Greek or Russian took more
 * than a 412 px screen's width, and Save fell alone onto a second line.
 */
/** Narrower than this, Delete goes into the menu (Delete, Cancel and Save side by side need some 400 px in Greek). */
const PHONE = '(max-width: 35.99em)';

export function RecordToolbar(p: {
  /** The record's heading (in create mode, the new record's). */
  title: string;
  /** Beside the heading: the record's state (a reservation's stage). */
  titleAside?: ReactNode;
  mode: 'view' | 'edit' | 'create';
  backText: string;
  /** Back, and Cancel of a new record (none: back to the screen before). */
  onBack?: () => void;
  /** The record's route and id: Edit opens `${route}/Edit/${id}`, Cancel in edit mode `${route}/${id}` (in create mode it goes back). */
  route: string;
  id: number | null | undefined;
  onDelete: () => void;
  onSave: () => void;
  /** The form's save under way, and its error (said under the toolbar). */
  state: { busy: boolean; error: string | null };
  testId: string;
  /** More actions of the record in view mode, before Back and Edit (the viewing's sheet). */
  viewActions?: ReactNode;
  /** A record edited at its own address (a document's ?edit=1): what Edit and, in edit mode, Cancel do instead of opening the addresses above. */
  onEdit?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const onBack = p.onBack ?? goBack;
  const phone = useMedia(PHONE, false);
  const actions = t('accounts.ui.view.actions');
  const menuButton = useRef<HTMLButtonElement>(null);
  const heading = (
    <Title order={2} size="h3">
      {p.title}
    </Title>
  );
  return (
    <>
      <Group justify="space-between">
        {p.titleAside !== undefined ? (
          <Group gap="xs">
            {heading}
            {p.titleAside}
          </Group>
        ) : (
          heading
        )}
        <Group gap="xs" wrap="nowrap">
          {p.mode === 'view' ? (
            <>
              {p.viewActions}
              <Button variant="default" onClick={onBack}>
                {p.backText}
              </Button>
              {p.onEdit ? (
                <Button onClick={p.onEdit} data-testid={`${p.testId}-edit`}>
                  {t('common.edit')}
                </Button>
              ) : (
                <Button component={Link} to={`${p.route}/Edit/${p.id}`} data-testid={`${p.testId}-edit`}>
                  {t('common.edit')}
                </Button>
              )}
            </>
          ) : (
            <>
              {p.mode === 'edit' &&
                (phone ? (
                  <Menu position="bottom-start" withinPortal>
                    <Menu.Target>
                      <Tooltip label={actions}>
                        <ActionIcon ref={menuButton} variant="default" size={36} aria-label={actions} data-testid={`${p.testId}-actions`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Tooltip>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <DeleteMenuItem onClick={p.onDelete} returnFocusTo={menuButton} testId={`${p.testId}-delete`}>
                        {t('common.delete')}
                      </DeleteMenuItem>
                    </Menu.Dropdown>
                  </Menu>
                ) : (
                  <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={p.onDelete} data-testid={`${p.testId}-delete`}>
                    {t('common.delete')}
                  </Button>
                ))}
              <Button variant="default" onClick={() => (p.mode !== 'edit' ? onBack() : p.onCancel ? p.onCancel() : navigate(`${p.route}/${p.id}`))} data-testid={`${p.testId}-cancel`}>
                {t('common.cancel')}
              </Button>
              <Button onClick={p.onSave} loading={p.state.busy} data-testid={`${p.testId}-save`}>
                {t('common.save')}
              </Button>
            </>
          )}
        </Group>
      </Group>
      <FailureAlert failure={p.state.error} preLine testId={`${p.testId}-form-error`} />
    </>
  );
}
