import { Alert, Button, Center, Group, Loader, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../../lib/errors.ts';
import { addObject, objectKeys } from '../api/objects.ts';

/** /Objects/Add: asks the server for a blank object (with a new reference number) and opens it in expanded edit. */
export function ObjectAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    addObject()
      .then((id) => {
        void client.invalidateQueries({ queryKey: objectKeys.lists });
        navigate(`/Objects/View/${id}/2`, { replace: true });
      })
      .catch((e: unknown) => {
        setError(e);
        started.current = false;
      });
  }, [attempt, navigate, client]);

  if (error != null)
    return (
      <Stack maw={640} mx="auto" mt="lg">
        <Alert color="red" data-testid="object-add-error">
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
    <Center py="xl" data-testid="object-adding">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}
