import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TDealCard, TDealSaved } from '@crm/contract';
import { DEAL_BOARD_MAX, DEAL_BOARD_STEP, SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { IconPlus } from '../../../components/icons.ts';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { useSavedFilter } from '../../../lib/list-state.ts';
import { IconList } from '../icons.ts';
import { DEAL_BOARD_FILTER, dealBoardQuery, dealKeys, moveDeal, NO_BOARD_FILTER, savedBanner, type BoardFilter } from '../api/deals.ts';
import './deals.css';
import { objectKeys } from '../../../lib/query-keys.ts';
import { partyRelationText } from '../party-relation.ts';
import { StageNeedsDialog, stageNeeds } from '../components/stage-needs-dialog.tsx';
import { dealTextKey } from '@crm/contract/deal-fields';
import { DealBoardColumn, DealBoardFilter, DRAG_TYPE, type BoardCards } from '../components/deal-board-parts.tsx';
import { DEAL, href } from '@crm/contract/resources';

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

  const b: BoardCards = { stages: columns.map((c) => c.stage), stageName, roleOf, typeText, move: (card, stage) => void move(card, stage), moving };

  return (
    <Stack gap="sm" data-testid="deals-board">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('deals.ui.boardTitle')}
        </Title>
        <Group gap="xs">
          <Button component={Link} to={href(DEAL.screens.list)} variant="default" leftSection={<IconList size={16} />}>
            {t('deals.ui.list')}
          </Button>
          <Button component={Link} to={href(DEAL.screens.add)} leftSection={<IconPlus size={16} />}>
            {t('deals.ui.add')}
          </Button>
        </Group>
      </Group>
      <DealBoardFilter filter={filter} change={change} active={filtered} types={q.data?.options.types ?? []} />
      {q.isError && <Text c="red">{describeError(q.error).message}</Text>}
      <div className="deal-board">
        {columns.map((col) => (
          <DealBoardColumn
            key={col.stage}
            col={col}
            b={b}
            over={over === col.stage}
            setOver={setOver}
            onLeave={() => setOver((o) => (o === col.stage ? null : o))}
            onDrop={onDrop(col.stage)}
            canShowMore={perStage < DEAL_BOARD_MAX}
            showMore={() => setPerStage((n) => Math.min(DEAL_BOARD_MAX, n + DEAL_BOARD_STEP))}
            loadingMore={q.isFetching && q.isPlaceholderData}
          />
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
