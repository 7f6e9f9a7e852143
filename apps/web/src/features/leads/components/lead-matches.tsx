import { Anchor, Badge, Button, Card, Group, List, Loader, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { IconCheck, IconPlus, IconX } from '../../../components/icons.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatArea, formatMoney } from '../../../lib/format.ts';
import { addLeadObject, leadKeys, leadMatches, markMatchesSeen, setNotSuitable } from '../api/leads.ts';
import { OBJECT, href } from '@crm/contract/resources';

export const matchesKey = (leadId: number) => ['lead', 'matches', leadId] as const;

/**
 * The objects that fit the lead, best first, with the score and the reasons (what fits in green,
 * what falls short in red). One click offers an object (it then leaves the matches); "Not
 * suitable" keeps it out for good. Objects added or cheaper since the matches were last seen are
 * marked new until the agent marks them seen.
 */
export function LeadMatches({ leadId, asksFor = true }: { leadId: number; /** The lead asks to buy, rent or let short term: what matching looks for. */ asksFor?: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const q = useQuery({
    queryKey: matchesKey(leadId),
    queryFn: ({ signal }) => leadMatches(leadId, 20, signal),
  });
  const items = q.data?.items ?? [];
  const newCount = items.filter((i) => i.isNew).length;
  // The match being offered or set aside: its buttons wait (a double tap sent the offer twice, and
  // the second was answered "already in the list") until the matches are read again without it.
  const [busy, setBusy] = useState<number | null>(null);
  const inFlight = useRef(false);
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: matchesKey(leadId) }), client.invalidateQueries({ queryKey: leadKeys.one(leadId) })]);
  const act = async (fn: () => Promise<unknown>, objectId?: number) => {
    // Two taps within one frame both run before the buttons are drawn waiting: the second is dropped here.
    if (objectId !== undefined) {
      if (inFlight.current) return;
      inFlight.current = true;
      setBusy(objectId);
    }
    try {
      await fn();
      setError(null);
      await refresh();
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      if (objectId !== undefined) {
        inFlight.current = false;
        setBusy(null);
      }
    }
  };

  return (
    <Card withBorder padding="sm" data-testid="lead-matches">
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Title order={3} size="h5">
            {t('leads.ui.matches.title')}
          </Title>
          {newCount > 0 && (
            <Badge color="green" data-testid="lead-matches-new">
              {t('leads.ui.matches.newCount', { count: newCount })}
            </Badge>
          )}
        </Group>
        {newCount > 0 && (
          <Button size="xs" variant="light" onClick={() => void act(() => markMatchesSeen(leadId))} data-testid="lead-matches-seen">
            {t('leads.ui.matches.markSeen')}
          </Button>
        )}
      </Group>
      {q.isLoading && <Loader size="sm" />}
      {q.isError && <Text c="red">{describeError(q.error).message}</Text>}
      {q.data && items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t(asksFor ? 'leads.ui.matches.none' : 'leads.ui.matches.noService')}
        </Text>
      )}
      <Stack gap="sm">
        {items.map((m) => (
          <Card key={m.objectId} withBorder padding="xs" data-testid="lead-match" data-object-id={m.objectId}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                <Group gap="xs">
                  <Anchor component={Link} to={href(OBJECT.screens.view, { id: m.objectId })} fw={600}>
                    #{m.referenceNumber}
                    {m.title ? ` · ${m.title}` : ''}
                  </Anchor>
                  {m.isNew && (
                    <Badge size="sm" color="green" variant="filled">
                      {t('leads.ui.matches.new')}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed">
                  {[m.type, m.location, m.price != null ? formatMoney(m.price) : null, m.area != null ? formatArea(m.area) : null].filter(Boolean).join(' · ')}
                </Text>
              </Stack>
              <Badge size="lg" variant="light" color={m.score >= 80 ? 'green' : m.score >= 60 ? 'yellow' : 'gray'} style={{ flexShrink: 0, overflow: 'visible' }} data-testid="lead-match-score">
                <span aria-hidden="true">{m.score}</span>
                <VisuallyHidden>{t('leads.ui.matches.score', { score: m.score })}</VisuallyHidden>
              </Badge>
            </Group>
            <List size="sm" spacing={2} mt={6} center>
              {m.reasons.map((r) => (
                <List.Item
                  key={r.text}
                  icon={
                    <ThemeIcon size={16} radius="xl" color={r.good ? 'green' : 'red'} aria-hidden>
                      {r.good ? <IconCheck size={12} /> : <IconX size={12} />}
                    </ThemeIcon>
                  }
                >
                  <VisuallyHidden>{r.good ? t('leads.ui.matches.fits') : t('leads.ui.matches.short')} </VisuallyHidden>
                  {r.text}
                </List.Item>
              ))}
            </List>
            <Group gap="xs" mt="xs">
              <Button
                size="xs"
                leftSection={<IconPlus size={14} />}
                loading={busy === m.objectId}
                disabled={busy !== null && busy !== m.objectId}
                onClick={() => void act(() => addLeadObject(leadId, m.objectId), m.objectId)}
                data-testid="lead-match-offer"
              >
                {t('leads.ui.matches.offer')}
              </Button>
              <Button
                size="xs"
                variant="default"
                disabled={busy !== null}
                onClick={() => void act(() => setNotSuitable(leadId, m.objectId), m.objectId)}
                data-testid="lead-match-reject"
              >
                {t('leads.ui.matches.notSuitable')}
              </Button>
            </Group>
          </Card>
        ))}
      </Stack>
      {error && (
        <Text c="red" size="sm" mt="xs" role="alert" data-testid="lead-matches-error">
          {error}
        </Text>
      )}
    </Card>
  );
}
