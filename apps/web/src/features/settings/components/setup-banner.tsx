// Until the agency's set-up is done: a banner in the shell saying what is missing, and the set-up opened once on the first sign-in.
import { Alert, Anchor } from '@mantine/core';
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useLocation, useNavigate } from 'react-router';
import type { TSiteSettingsAnswer } from '@crm/contract';
import { SETTINGS, href } from '@crm/contract/resources';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { siteSettingsQuery } from '../api/settings.ts';

/** The browser session's mark that the set-up was opened once (a later visit home is not sent there again). */
const OFFERED = 'crm.setupOffered';
/** The home screen, where the first sign-in lands. */
const HOME = '/CRM';

/** What the set-up still lacks, as the banner names it. */
export function setupMissing(s: TSiteSettingsAnswer): ('name' | 'contacts' | 'numbers' | 'publicUrl')[] {
  const missing: ('name' | 'contacts' | 'numbers' | 'publicUrl')[] = [];
  if (!s.name && !s.nameEl) missing.push('name');
  if (!s.phone && !s.email) missing.push('contacts');
  if (!s.licence || !s.taxNumber) missing.push('numbers');
  if (s.linksLocal) missing.push('publicUrl');
  return missing;
}

/**
 * For an office admin whose agency has not done its set-up (a fresh install without the demo): the
 * first arrival home opens the set-up; every screen but the set-up shows what is missing, with a
 * link to it. Nothing for anyone else (they cannot change the settings).
 */
export function SetupBanner() {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const admin = isOfficeAdmin(session);
  const q = useQuery({ ...siteSettingsQuery(), enabled: admin, staleTime: 60_000 });
  const pending = admin && q.data?.setupDone === false;
  const setupPath = href(SETTINGS.screens.setup);
  useEffect(() => {
    if (!pending || location.pathname !== HOME || sessionStorage.getItem(OFFERED)) return;
    sessionStorage.setItem(OFFERED, '1');
    void navigate(setupPath, { replace: true });
  }, [pending, location.pathname, navigate, setupPath]);
  if (!pending || !q.data || location.pathname === setupPath) return null;
  const missing = setupMissing(q.data);
  if (!missing.length) return null;
  return (
    <Alert color="yellow" mb="sm" data-testid="setup-banner" role="status">
      {t('banner.setup.missing', { missing: missing.map((m) => t(`banner.setup.${m}`)).join(', ') })}{' '}
      <Anchor component={Link} to={setupPath} fw={600} data-testid="setup-banner-link">
        {t('banner.setup.open')}
      </Anchor>
    </Alert>
  );
}
