import type { TActionSearch, TActivityAdd, TActivityListQuery, TActivityUpdate } from '@crm/contract';
import { ACCOUNT, ACTIVITY, ASSIGNMENT, SHELL } from '@crm/contract/resources';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';

export type TAssignmentParentName = 'account' | 'lead' | 'object' | 'viewing';
export type TActivityDoneFilter = NonNullable<TActivityListQuery['done']>;

/** Query keys of this area, so that every screen invalidates the same lists. */
export const activityKeys = {
  all: ['activities'] as const,
  list: (entityType: number, id: number) => ['activities', 'list', entityType, id] as const,
  one: (id: number) => ['activities', 'one', id] as const,
  actions: ['activities', 'actions'] as const,
};
export const assignmentKeys = { list: (parent: string, parentId: number) => ['assignments', parent, parentId] as const };

export const fetchActivities = (
  q: { parent: number; parentId: number; done: TActivityDoneFilter; text: string; perPage: number; currentPage: number },
  signal?: AbortSignal,
) => call(ACTIVITY.calls.list, { query: q }, { signal });
export const fetchActivity = (id: number, signal?: AbortSignal) => call(ACTIVITY.calls.view, { params: { id } }, { signal });
/** Adds an activity to a record with what was entered in it (its first save); sent again with the same key, it is not added twice. */
export const addActivity = (body: TActivityAdd, changeKey: string) => call(ACTIVITY.calls.add, { body }, { changeKey });
export const updateActivity = (body: TActivityUpdate, changeKey?: string) => call(ACTIVITY.calls.update, { body }, { changeKey });
export const deleteActivity = (id: number) => call(ACTIVITY.calls.remove, { params: { id } });
export const searchActions = (body: TActionSearch, signal?: AbortSignal) => call(ACTIVITY.calls.actions, { body }, { signal, background: true });

export const fetchAssignments = (parent: TAssignmentParentName, parentId: number, signal?: AbortSignal) =>
  call(ASSIGNMENT.calls.list, { params: { parent, parentId } }, { signal });
/** A record's assignments: read by its section, and asked early by the route (app/prefetch.ts). */
export const assignmentsQuery = (parent: TAssignmentParentName, parentId: number) =>
  queryOptions({ queryKey: assignmentKeys.list(parent, parentId), queryFn: ({ signal }) => fetchAssignments(parent, parentId, signal), enabled: parentId > 0 });
const PARENT_FIELD: Record<TAssignmentParentName, 'accountId' | 'demandId' | 'objectId' | 'viewingId'> = { account: 'accountId', lead: 'demandId', object: 'objectId', viewing: 'viewingId' };
export const addAssignment = (parent: TAssignmentParentName, parentId: number, assignedTo: number) =>
  call(ASSIGNMENT.calls.add, { params: { parent }, body: { assignedTo, [PARENT_FIELD[parent]]: parentId } });
export const deleteAssignment = (parent: TAssignmentParentName, parentId: number, accountId: number) =>
  call(ASSIGNMENT.calls.remove, { params: { parent, parentId, accountId } });

export type TPickItem = { id: number; description: string; entity?: string };
/** Account search: filter 1 employees only, 2 employees and specialists. */
export const searchAccounts = (searchStr: string, filter: 1 | 2, signal?: AbortSignal) => call(ACCOUNT.calls.search, { query: { searchStr, filter } }, { signal });
/** Global search (accounts, properties, leads). */
export const searchRecords = (searchStr: string, signal?: AbortSignal) => call(SHELL.calls.search, { query: { searchStr } }, { signal });
