import { analyzeChangedTables, withTransaction, type Pool, type PoolClient } from '@rex/db';
import type { Logger } from '@rex/logger';
import { prom, use } from '@rex/telemetry';
import { appendChanges, type FeedEvent } from './db/changes-repo.ts';
import { refreshAssociations, refreshComments, refreshLocations, refreshOccurrences, refreshSamples, withOccurrencesOfSamples } from './db/read-model.ts';

const eventsApplied = use(new prom.Counter({ name: 'reports_projector_events_applied_total', help: 'Outbox events applied to the read model', registers: [] }));
const eventsBehind = use(new prom.Gauge({ name: 'reports_projector_events_behind', help: 'Outbox events not yet applied', registers: [] }));
const secondsBehind = use(
  new prom.Gauge({ name: 'reports_projector_seconds_behind', help: 'Age of the oldest outbox event not yet applied', registers: [] }),
);
const eventDelay = use(
  new prom.Histogram({
    name: 'reports_projector_event_delay_seconds',
    help: 'Time from an outbox event being written to its application to the read model',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  }),
);

/** An outbox event as the projector reads it: with what the change feed keeps of it. */
type OutboxEvent = FeedEvent & { id: string; txid: string; age: number };

/** The channel the projector notifies when a batch (and so the change feed) has moved on. */
export const CHANGES_CHANNEL = 'rex_changes';

/**
 * An outbox event (`o`) the projector may apply: written by a transaction older than every one
 * still running, so no event of a transaction that commits later can sort before it.
 */
const SETTLED_EVENT = 'o.txid < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * How a batch's statements are planned. A batch reads and writes records by id, a few hundred at
 * a time, so its cost should follow the batch and not the tables. PostgreSQL prices an index
 * lookup as a read from disk, and for a few hundred ids it planned hash and merge joins that read
 * records' samples and taxa whole, from a few thousand rows up to some tens of thousands, where
 * lookups become the cheaper plan: a cost per batch that grew with every record written. Within a
 * batch the planner joins by lookups only.
 */
export const BATCH_PLANNING = 'SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off';

/**
 * Applies one batch of outbox events, if this replica holds the cursor.
 * Events are taken in (transaction, id) order, and only from transactions
 * older than every running one, so a late commit is never skipped. The batch
 * and the cursor move commit together: a replica that dies mid-batch leaves
 * both as they were.
 */
export async function applyBatch(db: Pool, batchSize: number, statistics: StatisticsCheck): Promise<number> {
  return withTransaction(db, async (client) => {
    const { rows: cursor } = await client.query<{ txid: string; event_id: string }>(
      "SELECT txid::text, event_id FROM reports.projector_cursor WHERE name = 'outbox' FOR UPDATE SKIP LOCKED",
    );
    if (!cursor.length) return 0;
    await client.query(BATCH_PLANNING);
    // Ordered by the table's columns (o.txid, not the output column txid, which is text): in text
    // order transaction 100000 sorts before 99999, and a batch would move the cursor past events
    // it never applied. In index order the batch is also read from the index, not sorted from the
    // whole backlog.
    const { rows: events } = await client.query<OutboxEvent>(
      `SELECT o.id, o.txid::text AS txid, o.entity, o.entity_id, o.operation, o.website_id, o.user_id, o.occurred_on::text AS occurred_on,
              extract(epoch FROM clock_timestamp() - o.occurred_on)::float8 AS age
         FROM records.outbox o
        WHERE (o.txid, o.id) > ($1::xid8, $2::bigint) AND ${SETTLED_EVENT}
        ORDER BY o.txid, o.id LIMIT $3`,
      [cursor[0].txid, cursor[0].event_id, batchSize],
    );
    if (!events.length) {
      await analyzeReadModel(client, statistics);
      return fillAttributeValues(client);
    }
    const idsOf = (entity: string) => [...new Set(events.filter((e) => e.entity === entity).map((e) => e.entity_id))];
    const samples = idsOf('sample');
    await refreshSamples(client, samples);
    await refreshOccurrences(client, await withOccurrencesOfSamples(client, samples, idsOf('occurrence')));
    await refreshLocations(client, idsOf('location'));
    await refreshComments(client, idsOf('occurrence_comment'));
    await refreshAssociations(client, idsOf('occurrence_association'));
    await appendChanges(client, events);
    await client.query('SELECT pg_notify($1, NULL)', [CHANGES_CHANNEL]);
    const last = events[events.length - 1];
    await client.query("UPDATE reports.projector_cursor SET txid = $1::xid8, event_id = $2, applied_on = now() WHERE name = 'outbox'", [
      last.txid,
      last.id,
    ]);
    for (const event of events) eventDelay.observe(event.age);
    eventsApplied.inc(events.length);
    return events.length;
  });
}

/**
 * Occurrences projected before the read model held attribute values get them
 * when the projector has nothing else to do, a batch at a time (under the
 * cursor's lock, so no batch refreshes the same rows meanwhile).
 */
async function fillAttributeValues(client: PoolClient, batchSize = 500): Promise<number> {
  const { rows } = await client.query<{ id: string; known: boolean }>(
    `SELECT o.id::text, EXISTS (SELECT 1 FROM records.occurrences r WHERE r.id = o.id) AS known
       FROM reports.occurrences o WHERE o.attrs IS NULL LIMIT $1`,
    [batchSize],
  );
  await refreshOccurrences(client, rows.filter((row) => row.known).map((row) => row.id));
  // Rows records does not hold (written to the read model directly) have no values to show.
  const unknown = rows.filter((row) => !row.known).map((row) => row.id);
  if (unknown.length) await client.query(`UPDATE reports.occurrences SET attrs = '{}', sample_attrs = '{}' WHERE id = ANY($1::bigint[])`, [unknown]);
  return 0;
}

/** How often the projector looks at the read model's statistics, and when it looks next. */
export type StatisticsCheck = { everyMs: number; next: number };

const statisticsDue = (check: StatisticsCheck): boolean => Date.now() >= check.next;

/**
 * The read model's statistics follow its rows (see @rex/db's analyzeChangedTables): the projector
 * looks when idle, at most once per PROJECTOR_ANALYZE_EVERY_MS. Report plans go quadratic on a
 * table the planner takes for empty.
 */
async function analyzeReadModel(client: PoolClient, check: StatisticsCheck): Promise<void> {
  // Idle polls come every PROJECTOR_IDLE_MS; the statistics are looked at far less often.
  if (!statisticsDue(check)) return;
  check.next = Date.now() + check.everyMs;
  await analyzeChangedTables(client, 'reports', check.everyMs);
}

/**
 * Whether a batch would find anything to do (see batchDue). Only the first event past the cursor
 * is read, from the outbox's (txid, id) index: it has the oldest transaction of those waiting, so
 * when it is not settled, none is. The cursor is read first, as values the index can start from;
 * joined to the outbox, an EXISTS over the events past it was planned as a scan of the whole
 * outbox, which keeps every event ever written.
 */
export const BATCH_DUE_STATEMENT = `
  SELECT coalesce((SELECT ${SETTLED_EVENT} FROM records.outbox o
                    WHERE (o.txid, o.id) > (SELECT txid, event_id FROM reports.projector_cursor WHERE name = 'outbox')
                    ORDER BY o.txid, o.id LIMIT 1), false)
      OR EXISTS (SELECT 1 FROM reports.occurrences WHERE attrs IS NULL) AS due`;

/**
 * Whether a batch would find anything to do: events it may apply, occurrences
 * without attribute values, or statistics due to be looked at. An idle projector
 * asks this every PROJECTOR_IDLE_MS: one statement, where a batch is a
 * transaction of five round trips, each a system call that wakes PostgreSQL.
 */
export async function batchDue(db: Pool, statistics: StatisticsCheck): Promise<boolean> {
  if (statisticsDue(statistics)) return true;
  // Named: asked ten times a second, it is parsed and planned once per connection (planning took
  // three times as long as running it).
  const { rows } = await db.query<{ due: boolean }>({ name: 'batch-due', text: BATCH_DUE_STATEMENT });
  return rows[0].due;
}

/** Updates the lag gauges from the database. */
export async function measureLag(db: Pool): Promise<void> {
  const { rows } = await db.query<{ behind: string; seconds: number | null }>(
    `SELECT count(*) AS behind, extract(epoch FROM now() - min(o.occurred_on))::float8 AS seconds
       FROM records.outbox o, reports.projector_cursor c
      WHERE c.name = 'outbox' AND (o.txid, o.id) > (c.txid, c.event_id)`,
  );
  eventsBehind.set(Number(rows[0].behind));
  secondsBehind.set(rows[0].seconds ?? 0);
}

/** Runs the projector until stopped: batches back to back while there is work, a short pause when idle. */
export function startProjector(db: Pool, logger: Logger, options: { batchSize: number; idleMs: number; analyzeEveryMs: number }) {
  let stopped = false;
  const statistics: StatisticsCheck = { everyMs: options.analyzeEveryMs, next: 0 };
  let running: Promise<void> = Promise.resolve();
  let lastLagCheck = 0;
  const loop = async () => {
    // After a short batch the projector is idle: it asks whether a batch is due before running one.
    let idle = false;
    while (!stopped) {
      let applied = 0;
      try {
        if (!idle || (await batchDue(db, statistics))) applied = await applyBatch(db, options.batchSize, statistics);
        if (Date.now() - lastLagCheck > 1_000) {
          lastLagCheck = Date.now();
          await measureLag(db);
        }
      } catch (error) {
        logger.warn({ err: error }, 'projector batch failed; retrying');
      }
      idle = applied < options.batchSize;
      if (idle && !stopped) await new Promise((resolve) => setTimeout(resolve, options.idleMs));
    }
  };
  running = loop();
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}
