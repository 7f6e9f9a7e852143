import { ThemeIcon } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import { IconTools } from '../components/icons.ts';
import { useRouteTitle } from '../lib/use-route-title.ts';
import { NoticePanel } from '../components/notice-panel.tsx';

export function ComingSoon() {
  const { t } = useTranslation();
  const title = useRouteTitle();
  const icon = (
    <ThemeIcon size={56} radius="xl" variant="light">
      <IconTools size={32} />
    </ThemeIcon>
  );
  return <NoticePanel icon={icon} title={t('comingSoon.title')} body={t('comingSoon.body', { screen: t(title) })} testId="coming-soon" />;
}
