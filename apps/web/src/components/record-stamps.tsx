import { SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import { formatDateTime } from '../lib/format.ts';

/**
 * The record's footer: when it was created and last changed, and by whom. A record made by the
 * system or by the demo data has no author; its footer then says only when ("by —" says nothing).
 */
export function RecordStamps({
  createdOn,
  createdBy,
  modifiedOn,
  modifiedBy,
  testId,
}: {
  createdOn: string | null | undefined;
  createdBy: string | null | undefined;
  modifiedOn: string | null | undefined;
  modifiedBy: string | null | undefined;
  testId?: string;
}) {
  const { t } = useTranslation();
  const part = (kind: 'created' | 'modified', on: string | null | undefined, by: string | null | undefined) =>
    by ? t(`common.stamps.${kind}By`, { on: formatDateTime(on ?? null), by }) : t(`common.stamps.${kind}`, { on: formatDateTime(on ?? null) });
  return (
    <Text size="xs" c="dimmed" data-testid={testId}>
      {part('created', createdOn, createdBy)} · {part('modified', modifiedOn, modifiedBy)}
    </Text>
  );
}

/**
 * The same stamps as two labelled cells (the account's and the property's service information):
 * "Last changed" and "Created", each with when and by whom.
 */
export function StampsGrid({
  record,
  labels,
}: {
  record: { createdOn: string | null; createdBy?: string | null; modifiedOn: string | null; modifiedBy?: string | null };
  labels: { modifiedOn: string; createdOn: string };
}) {
  const cell = (label: string, on: string | null, by: string | null | undefined, testId: string) => (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" data-testid={testId}>
        {formatDateTime(on)} · {by ?? '—'}
      </Text>
    </div>
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {cell(labels.modifiedOn, record.modifiedOn, record.modifiedBy, 'modified-stamp')}
      {cell(labels.createdOn, record.createdOn, record.createdBy, 'created-stamp')}
    </SimpleGrid>
  );
}
