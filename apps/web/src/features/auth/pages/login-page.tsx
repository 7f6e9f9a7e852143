import { Alert, Anchor, Button, Center, Loader, Stack, TextInput, Title } from '@mantine/core';
import { PasswordField } from '../../../components/password-field.tsx';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useLocation, useNavigate } from 'react-router';
import { ClientRedirect } from '../../../components/client-only.tsx';
import { SESSION, href } from '@crm/contract/resources';
import { ApiError, call } from '../../../lib/api.ts';
import { changeLanguage, cookieLanguage } from '../../../lib/i18n.ts';
import { sessionEndedStore, setSession, useSession } from '../../../lib/session.ts';
import { login } from '../api/login.ts';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { variantStore } from '../../../lib/variant.ts';
import { isApiPath, returnPath } from '../return-url.ts';
import { FailureAlert } from '../../../components/failure-alert.tsx';

type Status = 'notLoggedIn' | 'loggingIn' | 'loggedIn';

export function LoginPage() {
  const { t } = useTranslation();
  // The language shown when the page opened: another one now was chosen here, before signing in.
  const [openedIn] = useState(cookieLanguage);
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const [status, setStatus] = useState<Status>('notLoggedIn');
  const [error, setError] = useState<string | null>(null);
  const from = (location.state as { from?: string } | null)?.from;
  // A page that sent the reader here to sign in and come back (a file's link opened signed out).
  const returnUrl = returnPath(new URLSearchParams(location.search).get('returnUrl'), window.location.origin);
  const expired = sessionEndedStore.use();
  const form = useForm({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : t('login.emailRequired')),
      password: (v) => (v ? null : t('login.passwordRequired')),
    },
  });

  useEffect(() => {
    document.title = `${t('title.login')} · ${t(variantStore.get() === 'payments' ? 'app.paymentsBrand' : 'app.brand')}`;
  }, [t]);

  // Signed in already: on to the return address, if any (a file's address through the browser).
  if (session && status === 'notLoggedIn') return returnUrl && isApiPath(returnUrl) ? <OpenWithSession path={returnUrl} /> : <ClientRedirect to={returnUrl ?? '/'} />;

  const submit = form.onSubmit(async (values) => {
    setStatus('loggingIn');
    setError(null);
    try {
      const s = await login(values);
      setSession(s);
      // A language chosen on this page is the user's choice now: it is kept and saved to the
      // account. Otherwise the saved language wins; a user who never chose one keeps the current
      // and saves it.
      const chosenHere = cookieLanguage() !== openedIn;
      if (s.language && !chosenHere) await changeLanguage(s.language);
      else if (s.language !== cookieLanguage()) {
        void call(SESSION.calls.language, { body: { language: cookieLanguage() } }, { background: true }).catch(() => undefined);
        setSession({ ...s, language: cookieLanguage() });
      }
      setStatus('loggedIn');
      // The file cookie came with the sign-in's answer, so a file's address opens now; the browser
      // opens the API's addresses itself, the router the screens.
      if (returnUrl && isApiPath(returnUrl)) window.location.replace(returnUrl);
      else navigate(returnUrl ?? (from && from !== '/login' ? from : '/'), { replace: true });
    } catch (e) {
      setStatus('notLoggedIn');
      if (e instanceof ApiError && (e.status >= 500 || e.problem.title === 'Internal Server Error')) setError(t('login.oops'));
      else if (e instanceof ApiError && e.status === 429) setError(e.problem.title);
      // Staff on the payments host: told where they sign in (decision 019).
      else if (e instanceof ApiError && e.status === 403 && e.problem.code === 'login.paymentsStaff') setError(e.problem.title);
      else if (e instanceof ApiError && e.status === 0) setError(t('errors.network'));
      else setError(t('login.incorrect'));
    }
  });

  return (
    <PublicFrame>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1} size="h3">{t('login.title')}</Title>
          {expired && !error && (
            <Alert color="blue" variant="light" data-testid="login-return-note">
              {t('login.sessionEnded')}
            </Alert>
          )}
          <FailureAlert failure={error} role="alert" testId="login-error" />
          <TextInput
            label={t('login.email')}
            type="email"
            autoComplete="username"
            required
            autoFocus
            data-testid="login-email"
            {...form.getInputProps('username')}
          />
          <PasswordField
            label={t('login.password')}
            autoComplete="current-password"
            required
            data-testid="login-password"
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={status === 'loggingIn'} disabled={status === 'loggingIn'} data-testid="login-submit">
            {status === 'loggingIn' ? t('login.inProgress') : t('login.submit')}
          </Button>
          <Anchor component={Link} to={href(SESSION.screens.forgotPassword)} size="sm" ta="center">
            {t('login.forgot')}
          </Anchor>
        </Stack>
      </form>
    </PublicFrame>
  );
}

/**
 * A file's address to open for a browser that keeps its session (sent here by the file's page): the
 * server had no file cookie from it, which lasts only as long as the browser's session and is not sent
 * at all with a link followed from another site (a mail). A call with the session sets the cookie again
 * and tells whether the session is still alive; the address then opens with it. A session the server
 * has ended is cleared by that call, and the sign-in form shows, with its return address kept.
 */
function OpenWithSession({ path }: { path: string }) {
  useEffect(() => {
    let live = true;
    call(SESSION.calls.me, {}, { background: true })
      .then(() => live && window.location.replace(path))
      .catch((e: unknown) => {
        // Not a 401 (the network, the server): the file's address says what is wrong.
        if (live && !(e instanceof ApiError && e.status === 401)) window.location.replace(path);
      });
    return () => {
      live = false;
    };
  }, [path]);
  return (
    <PublicFrame>
      <Center>
        <Loader />
      </Center>
    </PublicFrame>
  );
}
