import { Alert, Button, Center, Group, Loader, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../../lib/errors.ts';
import { addLead, justAddedLeads, leadKeys } from '../api/leads.ts';

/** /Leads/Add and /Leads/Add/{accountId}: creates the lead at once and opens it in expanded edit. */
export function LeadAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const client = useQueryClient();
  const accountId = params.id ? Number(params.id) : undefined;
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    addLead(accountId && Number.isInteger(accountId) && accountId > 0 ? accountId : undefined)
      .then(({ id }) => {
        justAddedLeads.add(id);
        void client.invalidateQueries({ queryKey: leadKeys.lists });
        void client.invalidateQueries({ queryKey: ['account'] });
        navigate(`/Leads/View/${id}/2`, { replace: true });
      })
      .catch((e: unknown) => {
        setError(e);
        started.current = false;
      });
  }, [attempt, accountId, navigate, client]);

  if (error != null)
    return (
      <Stack maw={640} mx="auto" mt="lg">
        <Alert color="red" data-testid="lead-add-error">
          {describeError(error).message}
        </Alert>
        <Group>
          <Button
            onClick={() => {
              setError(null);
              setAttempt((n) => n + 1);
            }}
          >
            {t('common.retry')}
          </Button>
        </Group>
      </Stack>
    );
  return (
    <Center py="xl" data-testid="lead-adding">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}
