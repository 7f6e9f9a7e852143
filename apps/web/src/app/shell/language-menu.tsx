import { Button, Menu } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.tsx';
import { LANGUAGES, type TLanguage } from '@crm/contract/constants';
import { IconLanguage } from '../../components/icons.ts';
import { SESSION } from '@crm/contract/resources';
import { call } from '../../lib/api.ts';
import { changeLanguage, cookieLanguage } from '../../lib/i18n.ts';
import { setSession, useSession } from '../../lib/session.ts';

/** Switches every text at once; a signed-in user's choice is also saved on the server. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const current = cookieLanguage();
  const choose = async (language: TLanguage) => {
    await changeLanguage(language);
    if (session) {
      void call(SESSION.calls.language, { body: { language } }, { background: true }).catch(() => undefined);
      setSession({ ...session, language });
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="compact-sm" leftSection={<IconLanguage size={16} />} aria-label={t('nav.languageButton', { code: i18n.language.toUpperCase() })} data-testid="language-menu">
          {i18n.language.toUpperCase()}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((l) => (
          <Menu.Item key={l} onClick={() => void choose(l)} fw={l === current ? 700 : undefined} data-testid={`language-${l}`}>
            {t(`lang.${l}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

