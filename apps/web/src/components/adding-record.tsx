import { Alert, Button, Center, Group, Loader, Stack } from '@mantine/core';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from '../lib/use-translation.tsx';
import { useChangeKeys } from '../lib/change-key.ts';
import { describeError } from '../lib/errors.ts';

/**
 * The screen of an Add address that makes its record at once (OBJECT.screens.add, LEAD.screens.add),
 * for the record its address names (`param`: the owner, the client), if any: a loader while the
 * server makes it (`add`); made, it is marked as just added (`added`), the lists it joins asked again
 * (`refresh`) and it is opened (`to`, in place of the Add address). When that fails, the reason and
 * Retry. The request carries an Idempotency-Key that stays the same on this screen, so Retry after a
 * lost answer (the record was made, its answer never came) opens that record instead of making
 * another, with another reference number.
 */
export function AddingRecord({ param, added, refresh, to, ...p }: {
  param: string;
  testId: string;
  add: (changeKey: string, forId: number | undefined) => Promise<number>;
  added: Set<number>;
  refresh: (forId: number | undefined) => QueryKey[];
  to: (id: number) => string;
}) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const raw = Number(useParams()[param]);
  const forId = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const onAdded = (id: number) => {
    added.add(id);
    for (const queryKey of refresh(forId)) void client.invalidateQueries({ queryKey });
    navigate(to(id), { replace: true });
  };
  return <Adding key={forId ?? 0} add={(changeKey) => p.add(changeKey, forId)} onAdded={onAdded} testId={p.testId} />;
}

function Adding({ add, onAdded, testId }: { add: (changeKey: string) => Promise<number>; onAdded: (id: number) => void; testId: string }) {
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
