import { confirmAction } from '../components/confirm-action.tsx';
import { useQuery, useQueryClient, type QueryKey, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { useRef, useState, type ComponentType, type ReactNode } from 'react';
import { keyedByAddress } from '../components/keyed-by-address.tsx';
import { useTranslation } from '../lib/use-translation.tsx';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageLoading } from '../components/page-loading.tsx';
import { RecordNotFound } from '../components/record-not-found.tsx';
import { focusInvalidEntry } from '../components/fields/invalid-entry.ts';
import { ApiError } from '../lib/api.ts';
import { showBanner, showBannerAfterNavigation } from '../lib/banner.ts';
import { useChangeKeys } from '../lib/change-key.ts';
import { carryForm, conflictMessage, sameForm, takeCarriedForm } from '../lib/conflict-merge.ts';
import { describeError, reportError } from '../lib/errors.ts';
import { useFormLeaveGuard } from '../lib/unsaved-guard.tsx';
import { FailureAlert } from '../components/failure-alert.tsx';
import { JUST_READ_MS } from '../lib/freshness.ts';
import { useRecordOpened, type RecentKind } from '../lib/recent.ts';

/**
 * The record kit (decision 057): a record's screen in its three modes, created, viewed and edited,
 * its loading, "not found" and error states, its form with the leave guard, Save with the version
 * guard (someone else's save first: their version loaded, what only this user changed carried into
 * it, what both changed named), a lost answer's retry made the same change (Idempotency-Key), and
 * Delete with its confirmation. A screen declares what is its own: how the record becomes a form,
 * the form a body, and what to merge on a conflict.
 */
export type Mode = 'create' | 'edit' | 'view';

/** The largest record id (a PostgreSQL integer): one past it is no record's (the server would answer 400). */
const MAX_ID = 2147483647;

/**
 * The mode and id an address gives: /X/Add creates, /X/{id} views, /X/Edit/{id} edits (a record
 * without an edit address: none). `newId`: the id's place names a new record (/ObjectKeys/new).
 */
export function useRecordAddress(editPrefix?: string, opts: { newId?: string } = {}): { id: number | null; mode: Mode; valid: boolean; search: URLSearchParams } {
  const params = useParams();
  const location = useLocation();
  const [search] = useSearchParams();
  const id = params.id && params.id.toLowerCase() !== opts.newId ? Number(params.id) : null;
  const mode: Mode = id == null ? 'create' : editPrefix && location.pathname.toLowerCase().startsWith(editPrefix.toLowerCase()) ? 'edit' : 'view';
  return { id, mode, valid: id == null || (Number.isInteger(id) && id > 0 && id <= MAX_ID), search };
}

/**
 * The record a screen opens at its address (useRecordAddress): the blank its Add call answers for a
 * new one, else the stored one by id. One opened to be read may be the route's read of a moment
 * ago; one opened to be edited is read afresh. `stored`: the record's answer once it is the
 * stored one (what the recent list names).
 */
export function useRecordOrBlank<A, KB extends QueryKey, KS extends QueryKey>(
  { id, mode, valid }: { id: number | null; mode: Mode; valid: boolean },
  blank: UseQueryOptions<A, Error, A, KB>,
  stored: (id: number) => UseQueryOptions<A, Error, A, KS>,
): { q: UseQueryResult<A>; stored: A | undefined } {
  const b = useQuery({ ...blank, enabled: id == null });
  const s = useQuery({ ...stored(id ?? 0), enabled: id != null && valid, staleTime: mode === 'view' ? JUST_READ_MS : 0 });
  return id == null ? { q: b, stored: undefined } : { q: s, stored: s.data };
}

/**
 * What a record screen declares of itself: its test id (`deal`: the page `deal-page`, the toolbar's
 * buttons `deal-save`...), its list's route (`/Deals`: the record is `/Deals/{id}`, edited at
 * `/Deals/Edit/{id}`) and its texts' prefix (`deals.ui`: `.new` heads a new record, `.back` is Back).
 */
export type RecordDeclaration = { testId: string; route: string; texts: string };

/** What a record screen's form is drawn with: the record at its address (for Add, the blank), the mode and the screen's declaration. */
export type RecordFormProps<A> = { record: A; mode: Mode; screen: RecordDeclaration };

/**
 * The screen of a record that is made here and opened here (a deal, a viewing, a booking): at its
 * address the stored record or, for Add, the blank its Add call answers (`blank`, from the
 * address's query: where it starts from); named in the recently opened once stored (`recent`); its
 * `Form` drawn afresh for each mode and version, and the whole screen afresh for each address
 * (keyedByAddress: an edit starts from a fresh read).
 */
export function recordScreen<A extends { id: number | null; version?: number | null }, KB extends QueryKey, KS extends QueryKey>(
  screen: RecordDeclaration,
  { blank, stored, recent }: {
    blank: (search: URLSearchParams) => UseQueryOptions<A, Error, A, KB>;
    stored: (id: number) => UseQueryOptions<A, Error, A, KS>;
    recent: [kind: RecentKind, name: (record: A, id: number) => string];
  },
  Form: ComponentType<RecordFormProps<A>>,
): ComponentType {
  return keyedByAddress(function BlankOrStoredScreen() {
    const { id, mode, valid, search } = useRecordAddress(`${screen.route}/Edit`);
    const { q, stored: r } = useRecordOrBlank({ id, mode, valid }, blank(search), stored);
    useRecordOpened(recent[0], id ?? 0, r ? recent[1](r, id ?? 0) : null, isGone(q));
    return (
      <RecordLoad q={q} valid={valid} mode={mode} testId={screen.testId}>
        {(data) => <Form key={`${mode}-${data.id}-${data.version}`} record={data} mode={mode} screen={screen} />}
      </RecordLoad>
    );
  });
}

/**
 * The record's answer, or the state in its place: not found (a bad address, a deleted record), an
 * error, loading. An edit (or a new record) waits for a read of its own: a form never starts from
 * an answer kept from before (`readByRoute`: the route's loader read it for this opening).
 * `failed`: a screen that says a bad address and a failed read in its own way (the spec's
 * transaction form: the error in the form's place), with the error's message (none: the address).
 */
export function RecordLoad<A>({
  q,
  valid,
  mode,
  testId,
  readByRoute,
  failed,
  children,
}: {
  q: UseQueryResult<A>;
  valid: boolean;
  mode: Mode;
  testId: string;
  readByRoute?: boolean;
  failed?: (message: string | null) => ReactNode;
  children: (record: A) => ReactNode;
}) {
  if (failed && (!valid || q.isError)) return failed(valid ? describeError(q.error).message : null);
  const gone = q.error instanceof ApiError && q.error.status === 404;
  if (!valid || gone) return <RecordNotFound testId={`${testId}-not-found`} />;
  if (q.isError && !q.data)
    return <FailureAlert failure={q.error} testId={`${testId}-error`} />;
  if (!q.data || (mode !== 'view' && !readByRoute && !q.isFetchedAfterMount)) return <PageLoading />;
  return children(q.data);
}

/** A record's answer was a 404 (for the "recently opened" list, which drops it). */
export const isGone = (q: UseQueryResult<unknown>) => q.error instanceof ApiError && q.error.status === 404;

export type RecordFormOptions<A, F> = {
  record: A;
  mode: Mode;
  /** The record's own name for a merged form handed to its next mount (`deal-12`). */
  carryKey: string;
  toForm: (record: A) => F;
};

/** A record's form: its values, as loaded and as typed, the leave guard over unsaved changes, and the save's state. */
export function useRecordForm<A, F>({ record, mode, carryKey, toForm }: RecordFormOptions<A, F>) {
  const [form, setForm] = useState<F>(() => takeCarriedForm<F>(carryKey) ?? toForm(record));
  // The record as loaded: what this user changed is measured against it when someone else saves first.
  const [loaded] = useState<F>(() => toForm(record));
  // Changes not saved ask before they are left behind (a reload, Back, a link); not in view mode.
  const leaveGuard = useFormLeaveGuard(mode !== 'view' && !sameForm(form, loaded));
  const [busy, setBusyState] = useState(false);
  // A double click submits twice before the button shows it is busy: the second finds this set.
  const busyNow = useRef(false);
  const setBusy = (b: boolean) => {
    busyNow.current = b;
    setBusyState(b);
  };
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<F>) => setForm((f) => ({ ...f, ...patch }));
  const changeKeys = useChangeKeys();
  return { form, setForm, set, loaded, leaveGuard, busy, busyNow, setBusy, errors, setErrors, error, setError, readOnly: mode === 'view', changeKeys, carryKey };
}
export type RecordForm<F> = ReturnType<typeof useRecordForm<unknown, F>>;

/** What a conflict merge answers: the form to carry (when anything of this user's survives) and what changed and what was lost. */
export type Merged<F> = { next: F; changed: string[]; lost: string[]; kept: boolean };

/**
 * Saves the form: the body sent with the change's key; on success `saved` (the cache, the lists),
 * the banner and on to `to` (none: the screen stays, the banner at once); on a 409 `merge` with the
 * other version (their form carried into the next mount, the banner naming what was kept); a 400
 * under the fields (then `invalid`, for what the screen does more); anything else above the form,
 * or in the banner (`errorsIn`, the spec's "other failures").
 */
export async function saveRecord<F, S, C>(
  rf: RecordForm<F>,
  opts: {
    body: () => unknown;
    send: (body: never, changeKey: string) => Promise<S>;
    saved: (answer: S) => { to?: string; replace?: boolean; banner: readonly [kind: 'success' | 'warning', text: string] };
    /** The other version (the 409's `current`): what to put in the cache, and the merge of the three forms; `title`: what the banner says when nothing of this user's is kept (the server's words otherwise). */
    conflict?: { current: (problem: unknown) => C; merge: (theirs: C) => Merged<F>; label: (field: string) => string; store?: (theirs: C) => void; title?: string };
    /** A refusal or an error was said (the fields refused, or none): bring it into view on a long form. */
    refused?: (fields: string[]) => void;
    invalid?: (e: ApiError) => void;
    errorsIn?: 'form' | 'banner';
  },
  t: (key: string, params?: Record<string, unknown>) => string,
  navigate: (to: string, o?: { replace?: boolean }) => void,
): Promise<void> {
  if (rf.busy || rf.busyNow.current || focusInvalidEntry()) return;
  rf.setBusy(true);
  rf.setErrors({});
  try {
    const body = opts.body();
    const answer = await opts.send(body as never, rf.changeKeys.keyFor(body));
    const next = opts.saved(answer);
    if (next.to === undefined) {
      // The form stays: what is sent next is a new change, even the same text again.
      rf.changeKeys.renew();
      showBanner(...next.banner);
      return;
    }
    // Saved to the same screen (a document's edit is /Document/5?edit=1): no route change would show a banner kept for the next one.
    const samePath = new URL(next.to, window.location.href).pathname.toLowerCase() === window.location.pathname.toLowerCase();
    // Leaving: the key is kept until the next screen is drawn, so a second click on Save meanwhile
    // sends the same change under the same key, and the server answers it again instead of storing
    // a second record (Save is enabled again before the next screen's code has loaded).
    if (samePath) rf.changeKeys.renew();
    (samePath ? showBanner : showBannerAfterNavigation)(...next.banner);
    rf.leaveGuard.release();
    navigate(next.to, { replace: next.replace });
  } catch (e) {
    if (e instanceof ApiError && e.status === 409 && e.problem.current && opts.conflict) {
      const theirs = opts.conflict.current(e.problem.current);
      const m = opts.conflict.merge(theirs);
      if (m.kept) carryForm(rf.carryKey, m.next);
      opts.conflict.store?.(theirs);
      showBanner('warning', conflictMessage(t, opts.conflict.title ?? e.problem.title, m, opts.conflict.label));
    } else if (e instanceof ApiError && e.status === 400 && Object.keys(e.fieldErrors).length) {
      rf.setErrors(e.fieldErrors);
      rf.setError(null);
      opts.invalid?.(e);
      opts.refused?.(Object.keys(e.fieldErrors));
    } else {
      if (e instanceof ApiError && e.status === 400) rf.setErrors({});
      if (opts.errorsIn === 'banner') reportError(e);
      else rf.setError(describeError(e).message);
      opts.refused?.([]);
    }
  } finally {
    rf.setBusy(false);
  }
}

/**
 * A record's Delete: the spec's question, then the call (`run`); done, the record's queries dropped
 * (`drop`) and those of what it was in asked again (`refresh`), its banner and on to the list.
 */
export function useDeleteRecord() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  return (opts: { title: string; text: string; extra?: ReactNode; run: () => Promise<unknown>; drop?: QueryKey[]; refresh?: QueryKey[]; done: { banner: readonly [kind: 'success' | 'warning', text: string]; to: string }; onError: (message: string) => void; release: () => void }) =>
    confirmAction(t, {
      title: opts.title,
      text: opts.extra ?? opts.text,
      testId: 'confirm-delete',
      onConfirm: async () => {
        try {
          await opts.run();
          for (const queryKey of opts.drop ?? []) client.removeQueries({ queryKey });
          for (const queryKey of opts.refresh ?? []) void client.invalidateQueries({ queryKey });
          showBannerAfterNavigation(...opts.done.banner);
          opts.release();
          navigate(opts.done.to);
        } catch (e) {
          opts.onError(describeError(e).message);
        }
      },
    });
}
