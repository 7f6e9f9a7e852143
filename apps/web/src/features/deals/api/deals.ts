import { recordQuery } from '../../../kit/record-query.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TDealNotice, TDealUpdate } from '@crm/contract';
import { DEAL, sortKey, type AnswerOf } from '@crm/contract/resources';
import { DEAL_MORE_COLUMNS, DEAL_SORTS } from '@crm/contract/deal-fields';
import { DEAL_BOARD_STEP } from '@crm/contract/constants';
import { call } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';
import { readSavedFilter, type SavedFilter } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';

/** The deal as the form reads it (GET /api/Deal/add, /api/Deal/edit/{id}): the contract's answer. */
export type TDealAnswer = AnswerOf<typeof DEAL.calls.edit>;
/** The deal list's answer (POST /api/Deal/search). */
export type TDealSearchAnswer = AnswerOf<typeof DEAL.calls.search>;

/** Filters of the deal list (cookie "DealList.filter"), spec: POST /api/Deal/search. */
export type TDealListFilter = {
  dealType: number;
  stages: number[];
  depositFrom: string | null;
  depositTill: string | null;
  endDateFrom: string | null;
  endDateTill: string | null;
  lastName: string;
  object: string;
  /** The agent (the employee in charge of the deal) and their name as the picker shows it. */
  agentId: number | null;
  agentText: string;
};
export const NO_DEAL_FILTER: TDealListFilter = {
  dealType: 0,
  stages: [],
  depositFrom: null,
  depositTill: null,
  endDateFrom: null,
  endDateTill: null,
  lastName: '',
  object: '',
  agentId: null,
  agentText: '',
};

export const dealKeys = {
  all: ['deal'] as const,
  lists: ['deal', 'list'] as const,
  board: ['deal', 'board'] as const,
  one: (id: number) => ['deal', 'one', id] as const,
};

const wireFilter = ({ agentText: _name, ...f }: Partial<TDealListFilter>) => ({ ...f, lastName: f.lastName?.trim() || null, object: f.object?.trim() || null });

/** POST /api/Deal/download: Deals.xlsx of every deal the list's filter matches, in the list's order. */
export async function downloadDeals(f: TDealListFilter, sort: { sortBy: string; sortDir: 'asc' | 'desc' }) {
  const blob = await call(DEAL.calls.download, { body: { ...wireFilter(f), sortDir: sort.sortDir, sortBy: sortKey(DEAL_SORTS, sort.sortBy) } }, { blob: true });
  saveBlob(blob, 'Deals.xlsx');
}

/** A page of the deals list; `more`: the further columns asked for (DEAL_MORE_COLUMNS). */
export const dealsQuery = (f: TDealListFilter, page: { perPage: number; currentPage: number; sortBy: string; sortDir: 'asc' | 'desc' }, more: string[] = []) =>
  queryOptions({
    queryKey: [...dealKeys.lists, f, page, more],
    queryFn: ({ signal }) => call(DEAL.calls.search, { body: { ...wireFilter(f), ...page, sortBy: sortKey(DEAL_SORTS, page.sortBy), more } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

/** The deals of one lead (or object, or account), for their pages. */
export const dealsOfQuery = (by: { demandId?: number; objectId?: number; accountId?: number }) =>
  queryOptions({
    queryKey: [...dealKeys.lists, 'of', by],
    queryFn: ({ signal }) => call(DEAL.calls.search, { body: { ...by, perPage: 100 } }, { signal, background: true }),
  });

export const dealBoardQuery = (f: BoardFilter, perStage: number) =>
  queryOptions({
    queryKey: [...dealKeys.board, f, perStage],
    queryFn: ({ signal }) => call(DEAL.calls.board, { body: { ...wireFilter(f), perStage } }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });

export const dealQuery = (id: number) =>
  recordQuery(dealKeys.one(id), DEAL.calls.edit, id, { keepOnReconnect: true });
export const blankDealQuery = (from: { objectId: number | null; demandId: number | null }) =>
  queryOptions({
    queryKey: ['deal', 'blank', from],
    queryFn: ({ signal }) => call(DEAL.calls.add, { query: { ...(from.objectId ? { objectId: from.objectId } : {}), ...(from.demandId ? { demandId: from.demandId } : {}) } }, { signal }),
    staleTime: 0,
    // A form is open on it: read again on reconnecting, a newer version would open the form afresh, dropping what was typed (a save meets it as a 409 and merges).
    refetchOnReconnect: false,
    gcTime: 0,
    meta: { handlesErrors: true },
  });

/** A save's or a move's answer: the deal, and what it did beyond it (a rental's tenant put on the property). */
export const saveDeal = (body: TDealUpdate, changeKey?: string) => call(DEAL.calls.update, { body }, { changeKey });
/** What a stage needs, sent with the move to it (DEAL_STAGE_NEEDS). */
export type StageData = { deposit?: number | null; dateOfDeposit?: string | null; endDate?: string | null };
export const moveDeal = (id: number, version: number, dealStage: number, data: StageData = {}) => call(DEAL.calls.move, { body: { id, version, dealStage, ...data } });

/** The banner after a save or a move: its message, then the notices; a warning among them makes it a warning. */
export const savedBanner = (message: string, notices: readonly TDealNotice[]) =>
  [notices.some((n) => n.kind === 'warning') ? 'warning' : 'success', [message, ...notices.map((n) => n.text)].join(' ')] as const;
/** What deleting the deal would do to the tenants it put on properties, as things stand now (its answer's onDelete). */
export const dealOnDelete = async (id: number) => (await call(DEAL.calls.edit, { params: { id } })).onDelete;
/** DELETE /api/Deal/{id}: what it did to the tenants the deal had put on properties comes back as notices. */
export const deleteDeal = (id: number) => call(DEAL.calls.remove, { params: { id } });


/** Page sizes of the deal list (spec: 5, 10, 20, 50, Show all; default 20). */
const DEAL_PAGE_SIZES = [5, 10, 20, 50, 1000000] as const;
/** The deals list: its cookies, its typed boxes and its call, for its screen and its route's loader. */
export const DEALS = listSource({ list: DEAL.list, saved: { list: { list: 'DealList' }, filter: { cookie: 'DealList.filter', initial: NO_DEAL_FILTER } }, debounced: ['lastName', 'object'], offered: DEAL_MORE_COLUMNS, pageSizes: DEAL_PAGE_SIZES, query: dealsQuery });

/** The board's filter (the list's, without stages: the board shows every stage), kept in its own cookie. */
export type BoardFilter = Omit<TDealListFilter, 'stages' | 'agentId' | 'agentText'>;
const { stages: _stages, agentId: _agent, agentText: _agentText, ...noBoardFilter } = NO_DEAL_FILTER;
export const NO_BOARD_FILTER: BoardFilter = noBoardFilter;
export const DEAL_BOARD_FILTER: SavedFilter<BoardFilter> = { cookie: 'DealBoard.filter', initial: NO_BOARD_FILTER };
/** The board as its cookie stands, the newest DEAL_BOARD_STEP of each stage: its route's loader asks for it while the screen's code loads. */
export const dealBoardFirst = () => dealBoardQuery(readSavedFilter(DEAL_BOARD_FILTER), DEAL_BOARD_STEP);
