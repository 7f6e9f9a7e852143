import { ActionIcon, Anchor, Badge, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { confirmAction } from './confirm-action.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { Link } from 'react-router';
import { ApiError } from '../lib/api.ts';
import { describeError } from '../lib/errors.ts';
import { IconTrash, IconUserPlus } from './icons.ts';
import { addAssignment, assignmentKeys, assignmentsQuery, deleteAssignment, type TAssignmentParentName } from './activities/api.ts';
import { SearchPicker } from './activities/search-picker.tsx';
import { useSectionReady } from './reveal.tsx';
import { ACCOUNT, href } from '@crm/contract/resources';

/**
 * The people assigned to a record, each a link to the person's account. Picking a person from the
 * search (employees and specialists) assigns them; the bin removes an assignment after a
 * confirmation. Adding and removing are hidden unless the server says the user may change them.
 */
export function Assignments({ parent, parentId, editable = false }: { parent: TAssignmentParentName; parentId: number; editable?: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = assignmentKeys.list(parent, parentId);
  const [error, setError] = useState<string | null>(null);
  const q = useQuery(assignmentsQuery(parent, parentId));
  const canEdit = editable && !!q.data?.canEdit;
  const items = q.data?.items ?? [];
  useSectionReady('assignments', !q.isPending || q.fetchStatus === 'idle');

  const add = useMutation({
    mutationFn: (accountId: number) => addAssignment(parent, parentId, accountId),
    meta: { handlesErrors: true },
    onSuccess: () => {
      setError(null);
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: (e) => setError(e instanceof ApiError && e.fieldErrors.assignedTo ? e.fieldErrors.assignedTo : describeError(e).message),
  });
  const remove = useMutation({
    mutationFn: (accountId: number) => deleteAssignment(parent, parentId, accountId),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
  });
  const confirmRemove = (accountId: number, name: string) =>
    confirmAction(t, {
      title: t('assignments.delete'),
      text: (
        <Text size="sm">
          {t('assignments.confirmDelete')} <b>{name}</b>
        </Text>
      ),
      testId: 'confirm-delete-assignment',
      onConfirm: () => {
        remove.mutate(accountId);
        // The removed row's button is gone: the focus goes to the box for the next name, after the
        // confirmation has given it back (its closing transition).
        setTimeout(() => document.querySelector<HTMLElement>('[data-testid="assignments"] [data-testid="assignment-add"]')?.focus(), 300);
      },
    });

  return (
    <Card withBorder data-testid="assignments">
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={3} size="h4">{t('assignments.title')}</Title>
          <Badge variant="light">{items.length}</Badge>
        </Group>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {q.isPending ? t('common.loading') : t('assignments.empty')}
          </Text>
        ) : (
          <Stack gap={4} data-testid="assignment-items">
            {items.map((i) => (
              <Group key={i.accountId} gap="xs" wrap="nowrap" data-testid="assignment-item">
                <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: i.accountId })} size="sm">
                  {i.account}
                </Anchor>
                {canEdit && (
                  <Tooltip label={t('assignments.delete')} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="sm"
                      onClick={() => confirmRemove(i.accountId, i.account)}
                      aria-label={`${t('assignments.delete')}: ${i.account}`}
                      data-testid="assignment-delete"
                    >
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            ))}
          </Stack>
        )}
        {canEdit && (
          <SearchPicker
            source={{ kind: 'accounts', filter: 2 }}
            placeholder={t('assignments.placeholder')}
            ariaLabel={t('assignments.add')}
            leftSection={<IconUserPlus size={16} />}
            error={error}
            // Not disabled while a pick is being stored: a disabled box loses the focus (the next Tab
            // began at the top of the page); a second pick meanwhile is ignored instead.
            onPick={(p) => {
              if (p && !add.isPending) add.mutate(p.id);
            }}
            testId="assignment-add"
          />
        )}
      </Stack>
    </Card>
  );
}
