import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { saveUserRole, userRoleQuery } from '../api/employe.ts';
import { useGoBack } from '../../../components/go-back.ts';
import { roleText } from '../components/labels.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/** /ChangeEmployeRole/{id}: the employee's name, current role and the roles to choose from. */
export function EmployeRolePage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const goBack = useGoBack();
  const client = useQueryClient();
  const q = useQuery({ ...userRoleQuery(id), enabled: Number.isInteger(id) && id > 0, meta: { handlesErrors: true } });
  const [role, setRole] = useState<string | null>(null);
  const save = useGuardedMutation({
    mutationFn: (r: string) => saveUserRole(id, r),
    meta: { handlesErrors: true },
    onSuccess: () => {
      // The next visit asks afresh (and waits for it), never showing this visit's copy.
      client.removeQueries({ queryKey: userRoleQuery(id).queryKey });
      void client.invalidateQueries({ queryKey: ['account'] });
      void client.invalidateQueries({ queryKey: ['accounts'] });
      goBack();
    },
  });

  if (q.isError) {
    return <FailureAlert failure={q.error} testId="role-error" />;
  }
  // Only a role read for this visit: a copy kept from an earlier one (before a change of role) showed
  // the old role as current while it was asked again, and a pick of that same value (no change for
  // the select) then saved the role the answer brought instead.
  if (!q.data || !q.isFetchedAfterMount) {
    return <PageLoading />;
  }
  const current = role ?? q.data.role;
  const fieldError = save.error instanceof ApiError ? save.error.fieldErrors.role : undefined;
  return (
    <Paper withBorder p="lg" maw={560} mx="auto">
      <Stack>
        <Title order={2} size="h3" data-testid="role-name">
          {q.data.name}
        </Title>
        <Text size="sm" data-testid="role-current">
          {t('accounts.ui.roles.current')}: <b>{roleText(t, q.data.role) || t('common.notSet')}</b>
        </Text>
        {!fieldError && <FailureAlert failure={save.error} testId="role-save-error" />}
        <Select
          label={t('accounts.ui.roles.choose')}
          data={q.data.roleList.map((o) => ({ value: String(o.value), label: roleText(t, String(o.value)) || o.text }))}
          value={current}
          onChange={setRole}
          allowDeselect={false}
          error={fieldError}
          data-testid="role-select"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={goBack}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => current && save.mutate(current)} disabled={!current} loading={save.isPending} data-testid="role-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
