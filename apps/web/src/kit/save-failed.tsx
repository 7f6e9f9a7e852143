import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import { describeError } from '../lib/errors.ts';

/** An auto-saved form's save failed: why, and Retry (the same fields sent again). */
export function SaveFailed({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" data-testid="save-error" title={title}>
      <Stack gap={6}>
        <Text size="sm" className="pre-line">
          {describeError(error).message}
        </Text>
        <Group>
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
