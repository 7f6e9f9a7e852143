import { Alert, Anchor, Button, CopyButton, Group, Image, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TCalendarFeedCreated } from '@crm/contract';

/**
 * A new calendar address, shown this once: the address to copy, its QR code for the phone's
 * camera, and the same address as webcal:// (an iPhone or a Mac opens its calendar's "subscribe").
 */
export function FeedShown({ made, testId }: { made: TCalendarFeedCreated; testId: string }) {
  const { t } = useTranslation();
  const webcal = made.url.replace(/^https?:\/\//, 'webcal://');
  return (
    <Stack gap="sm" data-testid={testId}>
      <Title order={4} size="h5">
        {t('icalfeed.ui.shown.title')}
      </Title>
      <Alert color="yellow" p="xs">
        <Text size="sm">{t('icalfeed.ui.shown.once')}</Text>
        <Text size="sm" fw={500}>
          {t('icalfeed.ui.shown.private')}
        </Text>
      </Alert>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput label={t('icalfeed.ui.shown.address')} value={made.url} readOnly flex={1} onFocus={(e) => e.currentTarget.select()} data-testid={`${testId}-url`} />
        <CopyButton value={made.url}>
          {({ copied, copy }) => (
            <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy} data-testid={`${testId}-copy`}>
              {copied ? t('icalfeed.ui.shown.copied') : t('icalfeed.ui.shown.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Image src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(made.qrSvg)}`} alt={t('icalfeed.ui.shown.qr')} w={220} h={220} fit="contain" bg="white" data-testid={`${testId}-qr`} />
      <Anchor href={webcal} size="sm" data-testid={`${testId}-webcal`}>
        {t('icalfeed.ui.shown.webcal')}
      </Anchor>
    </Stack>
  );
}
