import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';

/**
 * A secret shown this once (a new API key, a webhook's signing secret): the value to select or copy,
 * what it is for, and a button that closes it for good.
 */
export function SecretOnce({ title, hint, secret, onClose, testId }: { title: string; hint: string; secret: string | null; onClose: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Modal opened={!!secret} onClose={onClose} title={title} size="lg" closeOnClickOutside={false} closeButtonProps={{ 'aria-label': t('common.close') }} data-testid={testId}>
      <Stack gap="sm">
        <Alert color="yellow" p="xs">
          <Text size="sm">{hint}</Text>
        </Alert>
        <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid={`${testId}-value`}>
          {secret}
        </Code>
        <Group justify="space-between" wrap="wrap">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy} data-testid={`${testId}-copy`}>
                {copied ? t('apiKeys.ui.copied') : t('apiKeys.ui.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose} data-testid={`${testId}-done`}>
            {t('apiKeys.ui.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
