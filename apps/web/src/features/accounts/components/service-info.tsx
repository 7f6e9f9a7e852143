import { Card, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TAccount } from '@crm/contract';
import { StampsGrid } from '../../../components/record-stamps.tsx';

/** Service information: when and by whom the record was last changed and created. */
export function ServiceInfo({ record }: { record: Pick<TAccount, 'createdOn' | 'createdBy' | 'modifiedOn' | 'modifiedBy'> }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" data-testid="service-info">
      <Title order={3} size="h5" mb="xs">
        {t('accounts.ui.section.service')}
      </Title>
      <StampsGrid record={record} labels={{ modifiedOn: t('accounts.ui.col.modifiedOn'), createdOn: t('accounts.ui.col.createdOn') }} />
    </Card>
  );
}
