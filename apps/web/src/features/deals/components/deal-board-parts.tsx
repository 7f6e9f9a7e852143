import { Anchor, Badge, Button, Grid, Group, Menu, Paper, Select, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import type { DragEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TDealBoard, TDealCard, TSelectOption } from '@crm/contract';
import { DEAL_BOARD_STEP } from '@crm/contract/constants';
import { DEAL_TYPE_RENTAL } from '@crm/contract/deal-fields';
import { DEAL, href } from '@crm/contract/resources';
import { FilterCard } from '../../../components/filter-card.tsx';
import { IconChevronDown } from '../../../components/icons.ts';
import { formatMoney } from '../../../lib/format.ts';
import type { BoardFilter } from '../api/deals.ts';

export const DRAG_TYPE = 'application/x-crm-deal';

/** What a card of the board needs from it: the stages' and types' names, the move, the card moving now. */
export type BoardCards = {
  stages: number[];
  stageName: (stage: number, dealType: number) => string;
  roleOf: (relation: number, dealType: number) => string;
  typeText: Map<number, string>;
  move: (card: TDealCard, stage: number) => void;
  moving: number | null;
};

/** A deal on the board: dragged to another column, or moved with its stage menu. */
export function DealBoardCard({ c, className, b }: { c: TDealCard; className: string; b: BoardCards }) {
  const { t } = useTranslation();
  const price = c.price ?? c.askingPrice;
  return (
    <Paper
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
      data-moving={b.moving === c.id ? 'true' : 'false'}
    >
      <Group justify="space-between" gap={4}>
        <Anchor component={Link} to={href(DEAL.screens.view, { id: c.id })} fw={600} size="sm">
          #{c.id} {c.objectReferenceNumber ? `· #${c.objectReferenceNumber}` : ''}
        </Anchor>
        <Badge size="xs" variant="light">
          {b.typeText.get(c.dealType) ?? c.dealType}
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
          <Text key={`${p.relation}-${p.accountId}`} size="xs" lineClamp={2} title={`${b.roleOf(p.relation, c.dealType)}: ${p.account}`}>
            {p.account}{' '}
            <Text span size="xs" c="dimmed">
              · {b.roleOf(p.relation, c.dealType)}
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
          {b.stages.map((stage) => (
            <Menu.Item key={stage} disabled={stage === c.dealStage} onClick={() => b.move(c, stage)} data-testid="deal-card-stage-option">
              {b.stageName(stage, c.dealType)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Paper>
  );
}

type Column = TDealBoard['columns'][number];

/** A stage's column: its count, its totals, its cards and the way to more of them. */
export function DealBoardColumn({ col, b, over, setOver, onLeave, onDrop, canShowMore, showMore, loadingMore }: {
  col: Column;
  b: BoardCards;
  over: boolean;
  setOver: (stage: number) => void;
  onLeave: () => void;
  onDrop: (ev: DragEvent) => void;
  canShowMore: boolean;
  showMore: () => void;
  loadingMore: boolean;
}) {
  const { t } = useTranslation();
  return (
    <section
      className="deal-column"
      data-over={over ? 'true' : 'false'}
      onDragOver={(ev) => {
        ev.preventDefault();
        if (!over) setOver(col.stage);
      }}
      onDragLeave={onLeave}
      onDrop={onDrop}
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
      {col.cards.map((c) => (
        <DealBoardCard key={c.id} c={c} className={col.className} b={b} />
      ))}
      {col.count > col.cards.length && (
        // Side by side where they fit, one under the other where they do not ("Показать ещё 8" was cut).
        <Group gap="xs" justify="space-between" wrap="wrap">
          {canShowMore && (
            <Button variant="subtle" size="compact-xs" onClick={showMore} loading={loadingMore} data-testid="deal-column-show-more">
              {t('deals.ui.showMore', { count: Math.min(DEAL_BOARD_STEP, col.count - col.cards.length) })}
            </Button>
          )}
          <Anchor component={Link} to={href(DEAL.screens.list)} size="xs">
            {t('deals.ui.more', { count: col.count - col.cards.length })}
          </Anchor>
        </Group>
      )}
    </section>
  );
}

/** The board's filters: the type, a party's name, the property. */
export function DealBoardFilter({ filter, change, active, types }: { filter: BoardFilter; change: (patch: Partial<BoardFilter>) => void; active: boolean; types: TSelectOption[] }) {
  const { t } = useTranslation();
  return (
    <FilterCard active={active} testId="deals-board-filter">
      <Grid gap="sm" align="flex-end">
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <Select
            label={t('deals.ui.filter.type')}
            data={[{ value: '0', label: t('deals.ui.filter.allTypes') }, ...types.map((o) => ({ value: String(o.value), label: o.text }))]}
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
  );
}
