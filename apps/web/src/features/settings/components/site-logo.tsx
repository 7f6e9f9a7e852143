// The agency's logo, as the settings page and the set-up upload and remove it.
import { Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TSiteSettings } from '@crm/contract';
import { describeError } from '../../../lib/errors.ts';
import { deleteSiteLogo, siteLogoUrl, uploadSiteLogo } from '../api/settings.ts';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/**
 * The logo: shown when there is one, uploaded (a picture: PNG, JPEG or WebP, checked by the server)
 * or removed, each based on the settings' version; the answer (the settings with their new version)
 * goes to `onSaved`.
 */
export function SiteLogo({ settings, onSaved }: { settings: TSiteSettings; onSaved: (s: TSiteSettings) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<TSiteSettings>) => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await work());
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={6} data-testid="settings-site-logo">
      <Text size="sm" fw={500}>
        {t('settings.ui.site.logo')}
      </Text>
      {settings.hasLogo && <Image src={siteLogoUrl(settings.version)} alt={t('settings.ui.site.logoAlt')} h={56} w="auto" fit="contain" maw={220} data-testid="settings-site-logo-image" />}
      <Group gap="xs">
        <FileButton accept="image/png,image/jpeg,image/webp,image/gif" onChange={(f) => f && void run(() => uploadSiteLogo(f, settings.version))}>
          {(props) => (
            <Button {...props} variant="default" size="xs" loading={busy} data-testid="settings-site-logo-upload">
              {t('settings.ui.site.logoUpload')}
            </Button>
          )}
        </FileButton>
        {settings.hasLogo && (
          <Button variant="subtle" color="red" size="xs" disabled={busy} onClick={() => void run(() => deleteSiteLogo(settings.version))} data-testid="settings-site-logo-remove">
            {t('settings.ui.site.logoRemove')}
          </Button>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {t('settings.ui.site.logoHint')}
      </Text>
      <FailureAlert failure={error} testId="settings-site-logo-error" />
    </Stack>
  );
}
