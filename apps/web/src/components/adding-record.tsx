import { Alert, Button, Center, Group, Loader, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { useChangeKeys } from '../lib/change-key.ts';
import { describeError } from '../lib/errors.ts';

/**
 * The screen of an Add address that makes its record at once (OBJECT.screens.add, LEAD.screens.add): a
 * loader while the server makes it, then `onAdded` opens it. When that fails, the reason and Retry.
 * The request carries an Idempotency-Key that stays the same on this screen, so Retry after a lost
 * answer (the record was made, its answer never came) opens that record instead of making another,
 * with another reference number.
 */
export function AddingRecord({ add, onAdded, testId }: { add: (changeKey: string) => Promise<number>; onAdded: (id: number) => void; testId: string }) {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const started = useRef(false);
  const changeKeys = useChangeKeys();
  const latest = useRef({ add, onAdded });
  latest.current = { add, onAdded };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    latest.current
      .add(changeKeys.keyFor(`add-${testId}`))
      .then((id) => latest.current.onAdded(id))
      .catch((e: unknown) => {
        setError(e);
        started.current = false;
      });
  }, [attempt, changeKeys, testId]);

  if (error != null)
    return (
      <Stack maw={640} mx="auto" mt="lg">
        <Alert color="red" data-testid={`${testId}-add-error`}>
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
    <Center py="xl" data-testid={`${testId}-adding`}>
      <Loader role="progressbar" aria-label={t('common.loading')} />
    </Center>
  );
}
