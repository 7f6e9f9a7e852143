import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAccount } from '@crm/contract';
import { formatDateTime } from '../../../lib/format.ts';

/** Service information: when and by whom the record was last changed and created. */
export function ServiceInfo({ record }: { record: Pick<TAccount, 'createdOn' | 'createdBy' | 'modifiedOn' | 'modifiedBy'> }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" data-testid="service-info">
      <Title order={3} size="h5" mb="xs">
        {t('accounts.ui.section.service')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <div>
          <Text size="xs" c="dimmed">
            {t('accounts.ui.col.modifiedOn')}
          </Text>
          <Text size="sm" data-testid="modified-stamp">
            {formatDateTime(record.modifiedOn)} · {record.modifiedBy ?? '—'}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('accounts.ui.col.createdOn')}
          </Text>
          <Text size="sm" data-testid="created-stamp">
            {formatDateTime(record.createdOn)} · {record.createdBy ?? '—'}
          </Text>
        </div>
      </SimpleGrid>
    </Card>
  );
}
