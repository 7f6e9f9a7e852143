import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { cultureOf, LANGUAGES, type TLanguage } from '@crm/contract/constants';
import { changeLanguage, cookieLanguage } from '../lib/i18n.ts';

/**
 * The language choice on the pages without layout (sign-in, password pages): three plain buttons,
 * so the first page needs no dropdown machinery.
 */
export function LanguageButtons() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState<TLanguage>(cookieLanguage());
  return (
    <Group gap={4} role="group" aria-label={t('nav.language')}>
      {LANGUAGES.map((l) => (
        <Button
          key={l}
          size="compact-sm"
          variant={l === current ? 'light' : 'subtle'}
          data-testid={`language-${l}`}
          // Each language by its own name, marked as that language (read so by a screen reader).
          lang={cultureOf(l)}
          aria-pressed={l === current}
          onClick={() => {
            setCurrent(l);
            void changeLanguage(l);
          }}
        >
          {t(`lang.${l}`)}
        </Button>
      ))}
    </Group>
  );
}
