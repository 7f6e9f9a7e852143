import { Anchor, Box, Card, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useParams } from 'react-router';
import type { TOwnerReportPublic } from '@crm/contract';
import { LinkPage, LinkPageAgency, useLinkPageData } from '../../../components/link-page.tsx';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { currentCulture, INTL_LOCALE } from '../../../lib/i18n.ts';
import { ownerReportPageQuery } from '../api/owner-report.ts';

/** Why a link opens no report: the server's reason, each with its heading. */
const CLOSED_TITLE: Record<string, string> = {
  'ownerReport.linkRevoked': 'ownerReport.page.revokedTitle',
  'ownerReport.linkExpired': 'ownerReport.page.expiredTitle',
  'ownerReport.mandateEnded': 'ownerReport.page.closedTitle',
};

const monthName = (month: string) => {
  const s = new Intl.DateTimeFormat(INTL_LOCALE[currentCulture()], { month: 'long', year: 'numeric' }).format(new Date(`${month}-15T12:00:00`));
  return s.charAt(0).toLocaleUpperCase() + s.slice(1);
};

/**
 * /OwnerReport/{token}: a property's report for its owner, opened from a mail without signing in
 * (decision 087): the mandate's dates, the viewings (a client is never named), enquiries, views and
 * price changes. Read-only; phone first.
 */
export function OwnerReportPage() {
  const { t } = useTranslation();
  const token = useParams().token ?? '';
  const query = useQuery(ownerReportPageQuery(token, currentCulture()));
  // A reader who has not chosen a language reads the report in the owner's.
  const { data, switching } = useLinkPageData(query.data, t('ownerReport.page.title'), (d) => d.agency.name);
  const code = query.error instanceof ApiError ? query.error.problem.code : null;
  const status = query.error instanceof ApiError ? query.error.status : null;
  const error = query.error && {
    testId: 'owner-report-error',
    attrs: { 'data-code': code ?? '' },
    title: t(code && CLOSED_TITLE[code] ? CLOSED_TITLE[code] : 'ownerReport.page.invalidTitle'),
    message: code && (status === 404 || status === 400) ? t(code === 'errors.validation' ? 'ownerReport.linkInvalid' : code) : describeError(query.error).message,
  };
  const agency = <LinkPageAgency name={data?.agency.name} logo={data?.agency.logo} testId="owner-report-agency" />;
  return (
    <LinkPage size="md" agency={agency} loading={query.isLoading || switching} error={error}>
      {data && <Report r={data} />}
    </LinkPage>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={id} data-testid={id}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

function Report({ r }: { r: TOwnerReportPublic }) {
  const { t } = useTranslation();
  const m = r.mandate;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('ownerReport.page.title')}
        </Title>
        <Text fw={600} data-testid="owner-report-property">
          #{r.property.ref}
          {r.property.title ? ` · ${r.property.title}` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          {t('ownerReport.page.madeOn', { date: formatDate(r.madeOn) })}
        </Text>
      </Stack>
      {m && (
        <Section id="owner-report-mandate" title={t('ownerReport.page.mandate')}>
          <Text>{t(`ownerReport.page.mandateKind.${m.kind}`)}</Text>
          <Text>{t('ownerReport.page.mandateDates', { from: formatDate(m.startDate), to: formatDate(m.endDate) })}</Text>
          {m.extendedUntil && <Text>{t('ownerReport.page.extended', { date: formatDate(m.extendedUntil) })}</Text>}
        </Section>
      )}
      <Section id="owner-report-viewings" title={t('ownerReport.page.viewings')}>
        {r.viewings.length === 0 ? (
          <Text>{t('ownerReport.page.noViewings')}</Text>
        ) : (
          <>
            <Text>{t('ownerReport.page.viewingsCount', { count: r.viewings.length })}</Text>
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {r.viewings.map((v, i) => (
                <Box component="li" key={i} data-testid="owner-report-viewing" style={{ borderTop: i ? '1px solid var(--mantine-color-gray-3)' : undefined, paddingTop: i ? 8 : 0 }}>
                  <Text fw={600}>
                    {formatDate(v.date)} · {t('ownerReport.page.aClient')}
                  </Text>
                  <Text size="sm">
                    {t('ownerReport.page.reaction')}: {v.result ? t(`viewings.result.${v.result}`) : t('ownerReport.page.noReaction')}
                  </Text>
                  {v.comment && (
                    <Text size="sm" fs="italic" data-testid="owner-report-comment">
                      «{v.comment}»
                    </Text>
                  )}
                </Box>
              ))}
            </Stack>
          </>
        )}
        <Text size="xs" c="dimmed">
          {t('ownerReport.page.privacy')}
        </Text>
      </Section>
      <Interest r={r} />
      <Prices r={r} />
      <Card withBorder padding="md" component="section" aria-labelledby="owner-report-contact">
        <Title order={2} size="h4" id="owner-report-contact">
          {t('ownerReport.page.contact')}
        </Title>
        <Text fw={600}>{r.agency.name}</Text>
        {r.agency.address && <Text>{r.agency.address}</Text>}
        {r.agency.phone && (
          <Text>
            {t('publishing.site.phone')}: <Anchor href={`tel:${r.agency.phone.replace(/[^\d+]/g, '')}`}>{r.agency.phone}</Anchor>
          </Text>
        )}
        {r.agency.email && (
          <Text>
            {t('publishing.site.email')}: <Anchor href={`mailto:${r.agency.email}`}>{r.agency.email}</Anchor>
          </Text>
        )}
        <Text size="sm" c="dimmed" mt="xs">
          {t('ownerReport.page.validUntil', { date: formatDate(r.expiresOn) })}
        </Text>
      </Card>
    </Stack>
  );
}

function Interest({ r }: { r: TOwnerReportPublic }) {
  const { t } = useTranslation();
  return (
    <>
      <Section id="owner-report-enquiries" title={t('ownerReport.page.enquiries')}>
        {r.enquiries.length === 0 ? (
          <Text>{t('ownerReport.page.noEnquiries')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={280}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('ownerReport.page.month')}</Table.Th>
                  <Table.Th>{t('ownerReport.page.source')}</Table.Th>
                  <Table.Th ta="right">{t('ownerReport.page.count')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.enquiries.map((e, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{monthName(e.month)}</Table.Td>
                    <Table.Td>{e.source ?? t('ownerReport.page.directSource')}</Table.Td>
                    <Table.Td ta="right">{e.count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Text size="sm">{t('ownerReport.page.shortlists', { count: r.shortlists })}</Text>
      </Section>
      <Section id="owner-report-views" title={t('ownerReport.page.siteViews')}>
        {r.siteViews.length === 0 ? (
          <Text>{t('ownerReport.page.noSiteViews')}</Text>
        ) : (
          <Stack gap={2}>
            {r.siteViews.map((v) => (
              <Text key={v.month}>
                {monthName(v.month)}: <b>{v.views}</b>
              </Text>
            ))}
          </Stack>
        )}
        <Text size="xs" c="dimmed">
          {t('ownerReport.page.portalViews')}
        </Text>
      </Section>
    </>
  );
}

function Prices({ r }: { r: TOwnerReportPublic }) {
  const { t } = useTranslation();
  return (
    <Section id="owner-report-prices" title={t('ownerReport.page.prices')}>
      {r.prices.length === 0 ? (
        <Text>{t('ownerReport.page.noPrices')}</Text>
      ) : (
        <Stack gap={2}>
          {r.prices.map((p, i) => (
            <Text key={i}>
              {formatDate(p.date)} · {t(`ownerReport.page.service.${p.service}`)}: <b>{p.price === null ? t('ownerReport.page.priceRemoved') : formatMoney(p.price)}</b>
            </Text>
          ))}
        </Stack>
      )}
    </Section>
  );
}
