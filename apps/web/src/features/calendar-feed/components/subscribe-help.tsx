import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';

const HOW = ['iphone', 'android', 'outlook'] as const;

/** How to subscribe on an iPhone, on Android through Google Calendar, and in Outlook; and how often they fetch. */
export function SubscribeHelp() {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="calendar-feed-help">
      <Title order={3} size="h4">
        {t('icalfeed.ui.how.title')}
      </Title>
      {HOW.map((h) => (
        <div key={h}>
          <Text size="sm" fw={600}>
            {t(`icalfeed.ui.how.${h}.title`)}
          </Text>
          <Text size="sm">{t(`icalfeed.ui.how.${h}.text`)}</Text>
        </div>
      ))}
      <Text size="sm" c="dimmed">
        {t('icalfeed.ui.how.refresh')}
      </Text>
    </Stack>
  );
}
