import { Alert, Anchor, Collapse, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconExclamationCircle } from '../../components/icons.ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearBanner, useBanner } from '../../lib/banner.ts';

const COLORS = { success: 'green', warning: 'yellow', danger: 'red' } as const;
const ICONS = { success: IconCircleCheck, warning: IconAlertTriangle, danger: IconExclamationCircle } as const;

/**
 * Markup, sanitized by DOMPurify. Its code (64 KB) loads with the first banner that carries markup,
 * not with every screen's shell; until then the text is shown without its tags.
 */
function SanitizedHtml({ html }: { html: string }) {
  const [clean, setClean] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('dompurify').then(({ default: DOMPurify }) => {
      if (live) setClean(DOMPurify.sanitize(html));
    });
    return () => {
      live = false;
    };
  }, [html]);
  if (clean === null) return <Text size="sm">{new DOMParser().parseFromString(html, 'text/html').body.textContent}</Text>;
  return <div dangerouslySetInnerHTML={{ __html: clean }} />;
}

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
        <SanitizedHtml html={banner.message} />
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
