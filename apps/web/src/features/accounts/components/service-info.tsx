import { SectionCard } from '../../../components/titled-card.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TAccount } from '@crm/contract';
import { StampsGrid } from '../../../components/record-stamps.tsx';

/** Service information: when and by whom the record was last changed and created. */
export function ServiceInfo({ record }: { record: Pick<TAccount, 'createdOn' | 'createdBy' | 'modifiedOn' | 'modifiedBy'> }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('accounts.ui.section.service')} testId="service-info">
      <StampsGrid record={record} labels={{ modifiedOn: t('accounts.ui.col.modifiedOn'), createdOn: t('accounts.ui.col.createdOn') }} />
    </SectionCard>
  );
}
