import { Alert, Anchor, Collapse, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconExclamationCircle } from '../../components/icons.ts';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
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
  // No DOMParser where the server draws the screen: the tags taken out by hand there (the text only, escaped by React).
  if (clean === null)
    return <Text size="sm">{typeof DOMParser === 'undefined' ? html.replace(/<[^>]*>/g, '') : new DOMParser().parseFromString(html, 'text/html').body.textContent}</Text>;
  return <div dangerouslySetInnerHTML={{ __html: clean }} />;
}

/** How long a message shown over the screen stays there before it goes back to its place on top. */
const FLOAT_MS = 8000;

/**
 * The page banner; messages may carry markup, which is sanitized. It sits above the content; a
 * message that arrives while that place is scrolled out of view (a deal card moved far down the
 * board on a phone, a save at the bottom of a long form) is shown at the bottom of the screen
 * instead, where it is seen, and goes back to its place after a few seconds or when scrolled to.
 */
export function Banner() {
  const banner = useBanner();
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const place = useRef<HTMLDivElement>(null);
  const [floating, setFloating] = useState(false);
  useLayoutEffect(() => {
    const el = place.current;
    if (!banner || !el) return setFloating(false);
    // The fixed header covers the top of the window.
    const covered = Math.max(0, Math.round(document.querySelector('header')?.getBoundingClientRect().bottom ?? 0));
    const r = el.getBoundingClientRect();
    const outOfView = r.bottom < covered || r.top > window.innerHeight;
    setFloating(outOfView);
    if (!outOfView) return;
    const back = setTimeout(() => setFloating(false), FLOAT_MS);
    // Scrolled back to the top, it is where it belongs.
    const seen = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setFloating(false);
      },
      { rootMargin: `-${covered}px 0px 0px 0px` },
    );
    seen.observe(el);
    return () => {
      clearTimeout(back);
      seen.disconnect();
    };
  }, [banner]);
  if (!banner) return <div ref={place} />;
  const Icon = ICONS[banner.type];
  return (
    <div ref={place} className={floating ? 'banner-place banner-floating' : 'banner-place'} data-floating={floating || undefined}>
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
    </div>
  );
}
