import { useTranslation } from '../lib/use-translation.tsx';
import { useGoBack } from './go-back.ts';
import { NoticePanel } from './notice-panel.tsx';

/** An unknown or deleted record: one clear state, with the way back, and nothing of the record's toolbar. */
export function RecordNotFound({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  return <NoticePanel title={t('title.notFound')} body={t('notFound.record')} testId={testId} onBack={goBack} />;
}
