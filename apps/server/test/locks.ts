import type pg from 'pg';

type Session = Pick<pg.ClientBase, 'query'>;

/**
 * Starts `statement` on `session` (another connection than the one holding a lock) and waits until
 * it either waits for a lock or is done, asked of PostgreSQL through `pool` (never timed): the lock
 * it waits for (pg_stat_activity's wait_event: 'advisory', 'transactionid', …; null when it was not
 * held up) and the statement's answer, to be awaited once the lock is let go.
 */
export async function heldUp<R extends pg.QueryResultRow>(pool: Pick<pg.Pool, 'query'>, session: Session, statement: string, values: unknown[] = []) {
  const pid = Number((await session.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
  let done = false;
  const answer = session.query<R>(statement, values).finally(() => {
    done = true;
  });
  // An answer that fails is the caller's to see when it awaits it; here it only ends the wait.
  answer.catch(() => undefined);
  let waitingFor: string | null = null;
  while (!waitingFor && !done) {
    const r = await pool.query<{ event: string }>(`select wait_event as event from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [pid]);
    waitingFor = r.rows[0]?.event ?? null;
    // Asked again a moment later, not in a tight loop (the machine is shared with the statement watched).
    if (!waitingFor && !done) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { waitingFor, answer };
}
