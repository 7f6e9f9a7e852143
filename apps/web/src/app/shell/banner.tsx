import { Alert, Anchor, Collapse, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconExclamationCircle } from '../../components/icons.ts';
import DOMPurify from 'dompurify';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearBanner, useBanner } from '../../lib/banner.ts';

const COLORS = { success: 'green', warning: 'yellow', danger: 'red' } as const;
const ICONS = { success: IconCircleCheck, warning: IconAlertTriangle, danger: IconExclamationCircle } as const;

/** The page banner; messages may carry markup, which is sanitized. */
export function Banner() {
  const banner = useBanner();
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!banner) return null;
  const Icon = ICONS[banner.type];
  return (
    <Alert
      color={COLORS[banner.type]}
      icon={<Icon />}
      withCloseButton
      closeButtonLabel={t('banner.close')}
      onClose={clearBanner}
      mb="md"
      role={banner.type === 'danger' ? 'alert' : 'status'}
      data-testid="banner"
      data-type={banner.type}
    >
      {banner.html ? (
        <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(banner.message) }} />
      ) : (
        <Text size="sm" className="pre-line">
          {banner.message}
        </Text>
      )}
      {banner.details && (
        <>
          <Anchor size="xs" component="button" onClick={() => setOpen((o) => !o)}>
            {t('banner.details')}
          </Anchor>
          <Collapse expanded={open}>
            <Text size="xs" className="pre-line" c="dimmed">
              {banner.details}
            </Text>
          </Collapse>
        </>
      )}
    </Alert>
  );
}
