import { Anchor, Badge, Button, Grid, Group, Menu, Paper, Select, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TDealCard, TDealSaved } from '@crm/contract';
import { DEAL_BOARD_MAX, DEAL_BOARD_STEP, SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { FilterCard } from '../../../components/filter-card.tsx';
import { IconChevronDown, IconPlus } from '../../../components/icons.ts';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useSavedFilter } from '../../../lib/list-state.ts';
import { IconList } from '../icons.ts';
import { DEAL_BOARD_FILTER, dealBoardQuery, dealKeys, moveDeal, NO_BOARD_FILTER, savedBanner, type BoardFilter } from '../api/deals.ts';
import './deals.css';
import { objectKeys } from '../../../lib/query-keys.ts';
import { partyRelationText } from '../party-relation.ts';
import { StageNeedsDialog, stageNeeds } from '../components/stage-needs-dialog.tsx';
import { DEAL_TYPE_RENTAL, dealTextKey } from '@crm/contract/deal-fields';
import { DEAL, href } from '@crm/contract/resources';

const DRAG_TYPE = 'application/x-crm-deal';

/**
 * /Deals/Board (beyond the spec): the deals by stage. A card dragged to another column moves the
 * deal there; its stage menu does the same from the keyboard or a phone. Each move carries the
 * version the card was read at: a deal changed meanwhile is not overwritten, and the board reloads.
 */
export function DealsBoardPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [filter, setFilter] = useSavedFilter(DEAL_BOARD_FILTER);
  const [lastName] = useDebouncedValue(filter.lastName, SEARCH_DEBOUNCE_MS);
  const [object] = useDebouncedValue(filter.object, SEARCH_DEBOUNCE_MS);
  // The newest 20 of each stage first (a phone draws each card with its stage menu); more on demand.
  const [perStage, setPerStage] = useState(DEAL_BOARD_STEP);
  const q = useQuery(dealBoardQuery({ ...filter, lastName, object }, perStage));
  const [over, setOver] = useState<number | null>(null);
  const [moving, setMoving] = useState<number | null>(null);
  const change = (patch: Partial<BoardFilter>) => setFilter((f) => ({ ...f, ...patch }));
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_BOARD_FILTER);
  const columns = q.data?.columns ?? [];
  /** A stage as a card's own type names it (the deposit a sale's earnest money, a rental's security deposit). */
  const stageName = (stage: number, dealType: number) => t(dealTextKey(`deals.stage.${stage}`, dealType), { defaultValue: columns.find((c) => c.stage === stage)?.name ?? String(stage) });
  const relationText = new Map((q.data?.options.relations ?? []).map((o) => [Number(o.value), o.text]));
  const roleOf = (relation: number, dealType: number) => partyRelationText(t, relation, dealType, relationText.get(relation) ?? String(relation));
  const typeText = new Map((q.data?.options.types ?? []).map((o) => [Number(o.value), o.text]));

  // A move to a stage that needs data the deal has not got (the deposit, the signing date) asks for it first.
  const [asking, setAsking] = useState<{ card: TDealCard; stage: number } | null>(null);
  const moved = (card: TDealCard, stage: number, { notices }: TDealSaved) => {
    // A closed rental's tenant put on the property changes its contacts.
    if (notices.length) void client.invalidateQueries({ queryKey: objectKeys.all });
    showBanner(...savedBanner(t('deals.ui.moved', { id: card.id, stage: stageName(stage, card.dealType) }), notices));
  };
  const failed = (err: unknown) => {
    const stale = err instanceof ApiError && err.status === 409;
    showBanner(stale ? 'warning' : 'danger', stale ? t('deals.ui.changedMeanwhile') : describeError(err).message);
  };
  const move = async (card: TDealCard, stage: number) => {
    if (stage === card.dealStage || moving) return;
    if (stageNeeds(card, stage).length) {
      setAsking({ card, stage });
      return;
    }
    setMoving(card.id);
    try {
      moved(card, stage, await moveDeal(card.id, card.version, stage));
    } catch (err) {
      failed(err);
    }
    await client.invalidateQueries({ queryKey: dealKeys.all });
    setMoving(null);
  };
  const askedDone = async (after: () => void) => {
    setAsking(null);
    after();
    await client.invalidateQueries({ queryKey: dealKeys.all });
  };

  const onDrop = (stage: number) => (ev: DragEvent) => {
    ev.preventDefault();
    setOver(null);
    const id = Number(ev.dataTransfer.getData(DRAG_TYPE));
    const card = columns.flatMap((c) => c.cards).find((c) => c.id === id);
    if (card) void move(card, stage);
  };

  const cardView = (c: TDealCard, className: string) => {
    const price = c.price ?? c.askingPrice;
    return (
      <Paper
        key={c.id}
        withBorder
        p="xs"
        draggable
        onDragStart={(ev) => {
          ev.dataTransfer.setData(DRAG_TYPE, String(c.id));
          ev.dataTransfer.effectAllowed = 'move';
        }}
        className={`deal-card ${className}`}
        data-testid="deal-card"
        data-id={c.id}
        data-moving={moving === c.id ? 'true' : 'false'}
      >
        <Group justify="space-between" gap={4}>
          <Anchor component={Link} to={href(DEAL.screens.view, { id: c.id })} fw={600} size="sm">
            #{c.id} {c.objectReferenceNumber ? `· #${c.objectReferenceNumber}` : ''}
          </Anchor>
          <Badge size="xs" variant="light">
            {typeText.get(c.dealType) ?? c.dealType}
          </Badge>
        </Group>
        {c.objectTitle && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {c.objectTitle}
          </Text>
        )}
        {price != null && (
          <Text size="sm" fw={500}>
            {c.dealType === DEAL_TYPE_RENTAL ? t('deals.ui.rentPerMonth', { amount: formatMoney(price) }) : formatMoney(price)}
          </Text>
        )}
        <Stack gap={0} mt={2}>
          {c.parties.slice(0, 4).map((p) => (
            // The name first: on a narrow column a long relation ("Seller / landlord") would hide it.
            <Text key={`${p.relation}-${p.accountId}`} size="xs" lineClamp={2} title={`${roleOf(p.relation, c.dealType)}: ${p.account}`}>
              {p.account}{' '}
              <Text span size="xs" c="dimmed">
                · {roleOf(p.relation, c.dealType)}
              </Text>
            </Text>
          ))}
        </Stack>
        {/* The keyboard and touch way to move a card (a finger cannot drag): the other stages by
            name, in full (a select's value in a 190 px column was cut to "Νομικός και τεχνικ"). */}
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            {/* Its words wrap in a narrow column rather than being cut ("Перенести на эта"). */}
            <Button mt={4} size="compact-xs" h="auto" mih={22} py={2} variant="light" fullWidth rightSection={<IconChevronDown size={14} />} styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }} data-testid="deal-card-stage">
              {t('deals.ui.moveCard')}
              <VisuallyHidden>{t('deals.ui.moveCardOf', { id: c.id })}</VisuallyHidden>
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {columns.map(({ stage }) => (
              <Menu.Item key={stage} disabled={stage === c.dealStage} onClick={() => void move(c, stage)} data-testid="deal-card-stage-option">
                {stageName(stage, c.dealType)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Paper>
    );
  };

  return (
    <Stack gap="sm" data-testid="deals-board">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('deals.ui.boardTitle')}
        </Title>
        <Group gap="xs">
          <Button component={Link} to="/Deals" variant="default" leftSection={<IconList size={16} />}>
            {t('deals.ui.list')}
          </Button>
          <Button component={Link} to="/Deals/Add" leftSection={<IconPlus size={16} />}>
            {t('deals.ui.add')}
          </Button>
        </Group>
      </Group>
      <FilterCard active={filtered} testId="deals-board-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Select
              label={t('deals.ui.filter.type')}
              data={[{ value: '0', label: t('deals.ui.filter.allTypes') }, ...(q.data?.options.types ?? []).map((o) => ({ value: String(o.value), label: o.text }))]}
              value={String(filter.dealType)}
              onChange={(v) => change({ dealType: Number(v ?? 0) })}
              allowDeselect={false}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <TextInput label={t('deals.ui.filter.lastName')} value={filter.lastName} onChange={(e) => change({ lastName: e.currentTarget.value })} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <TextInput label={t('deals.ui.filter.object')} placeholder={t('deals.ui.filter.objectPlaceholder')} value={filter.object} onChange={(e) => change({ object: e.currentTarget.value })} />
          </Grid.Col>
        </Grid>
      </FilterCard>
      {q.isError && <Text c="red">{describeError(q.error).message}</Text>}
      <div className="deal-board">
        {columns.map((col) => (
          <section
            key={col.stage}
            className="deal-column"
            data-over={over === col.stage ? 'true' : 'false'}
            onDragOver={(ev) => {
              ev.preventDefault();
              if (over !== col.stage) setOver(col.stage);
            }}
            onDragLeave={() => setOver((o) => (o === col.stage ? null : o))}
            onDrop={onDrop(col.stage)}
            aria-label={col.name}
            data-testid="deal-column"
            data-stage={col.stage}
          >
            <Group justify="space-between" gap={4} wrap="nowrap">
              <Title order={3} size="h6">
                {col.name}
              </Title>
              <Badge variant="default" data-testid="deal-column-count" style={{ flexShrink: 0 }}>
                {col.count}
              </Badge>
            </Group>
            {/* Sales and rentals apart: a sale price and a monthly rent do not add up. */}
            <Text size="xs" c="dimmed" data-testid="deal-column-total">
              {Number(col.saleTotal) > 0 || Number(col.rentTotal) === 0 ? <span data-testid="deal-column-sales">{t('deals.ui.boardSales', { amount: formatMoney(Number(col.saleTotal)) })}</span> : null}
              {Number(col.saleTotal) > 0 && Number(col.rentTotal) > 0 ? ' · ' : null}
              {Number(col.rentTotal) > 0 ? <span data-testid="deal-column-rents">{t('deals.ui.boardRents', { amount: formatMoney(Number(col.rentTotal)) })}</span> : null}
            </Text>
            {col.cards.map((c) => cardView(c, col.className))}
            {col.count > col.cards.length && (
              // Side by side where they fit, one under the other where they do not ("Показать ещё 8" was cut).
              <Group gap="xs" justify="space-between" wrap="wrap">
                {perStage < DEAL_BOARD_MAX && (
                  <Button
                    variant="subtle"
                    size="compact-xs"
                    onClick={() => setPerStage((n) => Math.min(DEAL_BOARD_MAX, n + DEAL_BOARD_STEP))}
                    loading={q.isFetching && q.isPlaceholderData}
                    data-testid="deal-column-show-more"
                  >
                    {t('deals.ui.showMore', { count: Math.min(DEAL_BOARD_STEP, col.count - col.cards.length) })}
                  </Button>
                )}
                <Anchor component={Link} to="/Deals" size="xs">
                  {t('deals.ui.more', { count: col.count - col.cards.length })}
                </Anchor>
              </Group>
            )}
          </section>
        ))}
      </div>
      {asking && (
        <StageNeedsDialog
          card={asking.card}
          stage={asking.stage}
          stageName={stageName(asking.stage, asking.card.dealType)}
          onClose={() => setAsking(null)}
          onMoved={(saved) => void askedDone(() => moved(asking.card, asking.stage, saved))}
          onFailed={(err) => void askedDone(() => failed(err))}
        />
      )}
    </Stack>
  );
}
