import { useTranslation } from '../lib/use-translation.tsx';
import { NoticePanel } from '../components/notice-panel.tsx';

export function NotFound() {
  const { t } = useTranslation();
  return <NoticePanel title={t('title.notFound')} body={t('notFound.body')} />;
}
