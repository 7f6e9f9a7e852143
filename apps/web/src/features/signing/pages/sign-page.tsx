import { Alert, Anchor, Button, Checkbox, Code, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useParams } from 'react-router';
import type { TSignPublic } from '@crm/contract';
import { SIGN_REQUEST, urlOf } from '@crm/contract/resources';
import { LinkPage, LinkPageAgency, useLinkPageData } from '../../../components/link-page.tsx';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';

import { SignaturePad } from '../components/signature-pad.tsx';
import { signDocument, signQuery } from '../api/signing.ts';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/** Why a link cannot be signed, in the texts the server's refusals use. */
const CANNOT: Record<string, string> = { voided: 'signing.documentChanged', expired: 'signing.linkExpired', revoked: 'signing.linkRevoked' };

/**
 * /Sign/{token}: a document sent for signature, opened from the mailed link without signing in,
 * phone first. The PDF and its SHA-256, the full name typed, a drawn signature, "I accept", Sign.
 */
export function SignPage() {
  const { t } = useTranslation();
  const token = useParams().token ?? '';
  const query = useQuery(signQuery(token));
  // A visitor who has not chosen a language reads the page in the document's.
  const { data, switching } = useLinkPageData(query.data, t('signing.page.title'), (d) => d.agencyName);
  const status = query.error instanceof ApiError ? query.error.status : null;
  const error = query.error && {
    testId: 'sign-error',
    title: t('signing.page.cannotSign'),
    message: status === 404 || status === 400 ? t('signing.linkInvalid') : describeError(query.error).message,
  };
  const agency = <LinkPageAgency name={data?.agencyName} logo={data?.agencyLogo} testId="sign-agency" />;
  return (
    <LinkPage size="sm" agency={agency} loading={query.isLoading || switching} error={error}>
      {data && <SignRequest token={token} data={data} />}
    </LinkPage>
  );
}

function SignRequest({ token, data }: { token: string; data: TSignPublic }) {
  const { t } = useTranslation();
  const pdf = urlOf(SIGN_REQUEST.calls.pdf, { params: { token } });
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {data.status === 'signed' ? t('signing.page.signedHeading') : data.status === 'sent' ? t('signing.page.title') : t('signing.page.cannotSign')}
        </Title>
        <Text fw={600} data-testid="sign-document" style={{ overflowWrap: 'anywhere' }}>
          {data.documentName}
        </Text>
        <Text size="sm">{t('signing.page.from', { agency: data.agencyName })}</Text>
      </Stack>
      {data.status === 'signed' && (
        <Alert color="green" data-testid="sign-done">
          <Stack gap="xs">
            <Text>{t('signing.page.signedText', { date: formatDateTime(data.signedOn) })}</Text>
            {data.pdfAvailable && (
              <Anchor href={pdf} target="_blank" rel="noopener" data-testid="sign-download">
                {t('signing.page.downloadSigned')}
              </Anchor>
            )}
          </Stack>
        </Alert>
      )}
      {CANNOT[data.status] && (
        <Alert color="red" role="alert" data-testid="sign-cannot" data-status={data.status}>
          {t(CANNOT[data.status]!)}
        </Alert>
      )}
      {data.status === 'sent' && <SignForm token={token} data={data} pdf={pdf} />}
      <Text size="xs" c="dimmed" data-testid="sign-notice">
        {t('signing.simpleSignature')}
      </Text>
    </Stack>
  );
}

function SignForm({ token, data, pdf }: { token: string; data: TSignPublic; pdf: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState(data.signerName);
  const [accept, setAccept] = useState(false);
  const [signature, setSignature] = useState('');
  const sign = useMutation({
    mutationFn: () => signDocument(token, { name, accept: true, signature }),
    onSuccess: (d) => qc.setQueryData(signQuery(token).queryKey, d),
    // Changed, revoked or expired meanwhile: the page is read again and says so.
    onError: (e) => {
      if (e instanceof ApiError && (e.status === 409 || e.status === 410)) void qc.invalidateQueries({ queryKey: signQuery(token).queryKey });
    },
    meta: { handlesErrors: true },
  });
  const ready = name.trim().length >= 2 && accept;
  return (
    <Stack gap="md" component="form" onSubmit={(e) => { e.preventDefault(); if (ready && !sign.isPending) sign.mutate(); }}>
      <Text>{t('signing.page.intro')}</Text>
      <Button component="a" href={pdf} target="_blank" rel="noopener" variant="light" data-testid="sign-open-pdf">
        {t('signing.page.openPdf')}
      </Button>
      <Stack gap={2}>
        <Text size="sm" fw={500} id="sign-hash-label">
          {t('signing.page.hash')}
        </Text>
        <Code block aria-labelledby="sign-hash-label" data-testid="sign-hash" translate="no" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {data.sha256}
        </Code>
        <Text size="xs" c="dimmed">
          {t('signing.page.expires', { date: formatDateTime(data.expiresOn) })}
        </Text>
      </Stack>
      <TextInput label={t('signing.page.name')} description={t('signing.page.nameHelp')} value={name} onChange={(e) => setName(e.currentTarget.value)} required autoComplete="name" maxLength={200} data-testid="sign-name" />
      <SignaturePad onChange={setSignature} disabled={sign.isPending} />
      <Checkbox label={t('signing.page.accept')} checked={accept} onChange={(e) => setAccept(e.currentTarget.checked)} data-testid="sign-accept" />
      <FailureAlert failure={sign.error} role="alert" testId="sign-failed" />
      <Button type="submit" size="md" disabled={!ready} loading={sign.isPending} data-testid="sign-submit">
        {t('signing.page.sign')}
      </Button>
    </Stack>
  );
}
