import { Alert, Anchor, Box, Button, Card, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useParams } from 'react-router';
import type { TShortlistAnswer, TShortlistProperty, TShortlistPublic } from '@crm/contract';
import { LinkPage, LinkPageAgency, useLinkPageData } from '../../../components/link-page.tsx';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatArea, formatDate, formatMoney } from '../../../lib/format.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { ANSWER_COLOR } from '../../../lib/shortlist-colors.ts';
import { answerShortlist, shortlistQuery } from '../api/shortlist.ts';

/** A button's label wraps on a narrow phone rather than being cut. */
const WRAP = { label: { whiteSpace: 'normal', textAlign: 'center' } } as const;


/**
 * /Shortlist/{token}: the properties an agent chose for a client, opened from an e-mail or a chat
 * without signing in. Public facts only; per property the client taps "Interested" or "Not for me".
 */
export function ShortlistPage() {
  const { t } = useTranslation();
  const token = useParams().token ?? '';
  const qc = useQueryClient();
  const culture = currentCulture();
  const query = useQuery(shortlistQuery(token, culture));
  // A visitor who has not chosen a language reads the page in the shortlist's (the client's).
  const { data, switching } = useLinkPageData(query.data, t('shortlist.page.title'), (d) => d.agency.name);
  const status = query.error instanceof ApiError ? query.error.status : null;
  // A 410 is a link withdrawn by the office or one whose time is over.
  const withdrawn = query.error instanceof ApiError && query.error.problem.code === 'shortlist.linkWithdrawn';
  const error = query.error && {
    testId: 'shortlist-error',
    attrs: { 'data-status': String(status ?? '') },
    title: withdrawn ? t('shortlist.page.withdrawnTitle') : status === 410 ? t('shortlist.page.expiredTitle') : t('shortlist.page.invalidTitle'),
    message: withdrawn ? t('shortlist.linkWithdrawn') : status === 410 ? t('shortlist.linkExpired') : status === 404 || status === 400 ? t('shortlist.linkInvalid') : describeError(query.error).message,
  };
  const agency = <LinkPageAgency name={data?.agency.name} logo={data?.agency.logo} testId="shortlist-agency" />;
  return (
    <LinkPage size="lg" agency={agency} loading={query.isLoading || switching} error={error}>
      {data && <Shortlist token={token} data={data} onAnswered={(d) => qc.setQueryData(shortlistQuery(token, culture).queryKey, d)} />}
    </LinkPage>
  );
}

function Shortlist({ token, data, onAnswered }: { token: string; data: TShortlistPublic; onAnswered: (d: TShortlistPublic) => void }) {
  const { t } = useTranslation();
  const { agency } = data;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('shortlist.page.heading')}
        </Title>
        {data.clientName && <Text>{t('shortlist.page.greeting', { name: data.clientName })}</Text>}
        <Text>{data.agentName ? t('shortlist.page.intro', { agent: data.agentName }) : t('shortlist.page.introPlain')}</Text>
      </Stack>
      {data.items.length === 0 ? (
        <Alert color="blue">{t('shortlist.page.empty')}</Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.items.map((p) => (
            <Box component="li" key={p.objectId}>
              <PropertyCard token={token} p={p} onAnswered={onAnswered} />
            </Box>
          ))}
        </SimpleGrid>
      )}
      <Card withBorder padding="md" component="section" aria-labelledby="shortlist-contact" data-testid="shortlist-contact">
        <Title order={2} size="h4" id="shortlist-contact">
          {t('shortlist.page.contact')}
        </Title>
        <Text fw={600}>{agency.name}</Text>
        {agency.address && <Text>{agency.address}</Text>}
        {agency.phone && (
          <Text>
            {t('publishing.site.phone')}: <Anchor href={`tel:${agency.phone.replace(/[^\d+]/g, '')}`}>{agency.phone}</Anchor>
          </Text>
        )}
        {agency.email && (
          <Text>
            {t('publishing.site.email')}: <Anchor href={`mailto:${agency.email}`}>{agency.email}</Anchor>
          </Text>
        )}
        <Text size="sm" c="dimmed" mt="xs">
          {t('shortlist.page.validUntil', { date: formatDate(data.expiresOn) })}
        </Text>
      </Card>
    </Stack>
  );
}

function PropertyCard({ token, p, onAnswered }: { token: string; p: TShortlistProperty; onAnswered: (d: TShortlistPublic) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (a: TShortlistAnswer | null) => answerShortlist(token, p.objectId, a),
    onSuccess: onAnswered,
    // Sold, let or taken off the market since the page was opened: the page is read again and shows it so.
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409) void qc.invalidateQueries({ queryKey: shortlistQuery(token, currentCulture()).queryKey });
    },
    meta: { handlesErrors: true },
  });
  const title = p.title || `#${p.ref}`;
  const choose = (a: TShortlistAnswer) => save.mutate(p.answer === a ? null : a);
  return (
    <Card withBorder padding={0} h="100%" data-testid="shortlist-property" data-answer={p.answer ?? ''} data-available={p.available} component="article" aria-labelledby={`sl-${p.objectId}`}>
      {p.photo ? (
        <Image src={p.photo} alt={t('shortlist.page.photoOf', { title })} h={220} fit="cover" loading="lazy" />
      ) : (
        <Box h={120} bg="gray.2" />
      )}
      <Stack gap={6} p="md" style={{ flexGrow: 1 }}>
        <Title order={2} size="h4" id={`sl-${p.objectId}`}>
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {[p.type, p.place].filter(Boolean).join(' · ')}
        </Text>
        {!p.available ? (
          <Text fw={700} c="gray.8" data-testid="shortlist-unavailable">
            {t('shortlist.page.noLongerAvailable')}
          </Text>
        ) : (
          <Text fw={700} fz="lg" data-testid="shortlist-price">
            {p.price ? (
              <>
                {formatMoney(p.price.price)}
                {p.price.service !== 'sale' && (
                  <Text span fw={400} fz="sm" c="dimmed">
                    {' '}
                    {t(`publishing.per.${p.price.service}`)}
                  </Text>
                )}
              </>
            ) : (
              t('shortlist.page.priceOnRequest')
            )}
          </Text>
        )}
        <Group gap="md">
          {p.bedrooms != null && (
            <Text size="sm">
              {t('shortlist.page.bedrooms')}: <b>{p.bedrooms}</b>
            </Text>
          )}
          {p.area != null && (
            <Text size="sm">
              {t('shortlist.page.area')}: <b>{formatArea(p.area)}</b>
            </Text>
          )}
        </Group>
        {p.description && <Text size="sm">{p.description}</Text>}
        {p.publicUrl && (
          <Anchor href={p.publicUrl} target="_blank" rel="noopener noreferrer" size="sm">
            {t('shortlist.page.onSite')}
          </Anchor>
        )}
        {p.available && (
          <Group gap="xs" mt="auto" pt="xs" role="group" aria-label={t('shortlist.page.answerGroup', { title })} grow>
            {(['interested', 'notForMe'] as const).map((answer) => (
              <Button
                key={answer}
                variant={p.answer === answer ? 'filled' : 'light'}
                color={ANSWER_COLOR[answer]}
                aria-pressed={p.answer === answer}
                onClick={() => choose(answer)}
                disabled={save.isPending}
                h="auto"
                py={8}
                styles={WRAP}
                data-testid={answer === 'interested' ? 'shortlist-interested' : 'shortlist-not-for-me'}
              >
                {t(`shortlist.page.${answer}`)}
              </Button>
            ))}
          </Group>
        )}
        <Box aria-live="polite">
          {p.available && p.answer && (
            <Text size="sm" c={ANSWER_COLOR[p.answer]} data-testid="shortlist-thanks">
              {p.answer === 'interested' ? t('shortlist.page.thanksInterested') : t('shortlist.page.thanksNotForMe')}
            </Text>
          )}
          {save.error && (
            <Text size="sm" c="red.8" role="alert">
              {describeError(save.error).message}
            </Text>
          )}
        </Box>
      </Stack>
    </Card>
  );
}
