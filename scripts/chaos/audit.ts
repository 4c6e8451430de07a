// What a chaos run left, checked in the database and the media store against
// what the clients were told.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from '@rex/db';
import type { Outcome } from './app-client.ts';

export type Audit = {
  acknowledged: number;
  present: number;
  lost: string[];
  partial: string[];
  duplicated: string[];
  unacknowledged: string[];
  orphans: string[];
  readModelMismatches: string[];
  /** When the read model had applied every outbox event (epoch ms), or null if it did not within a minute. */
  readModelCaughtUpAt: number | null;
  unconfirmedMedia: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` gives nothing (or the time is up) and answers what it last gave. */
async function settled<T>(check: () => Promise<T[]>, timeoutMs: number): Promise<{ left: T[]; at: number }> {
  const started = Date.now();
  for (;;) {
    const left = await check();
    if (!left.length || Date.now() - started > timeoutMs) return { left, at: Date.now() };
    await sleep(200);
  }
}

export async function audit(db: Pool, run: string, outcomes: Outcome[], mediaDir: string): Promise<Audit> {
  const acknowledged = outcomes.filter((outcome) => outcome.status === 201);
  const pattern = `chaos-${run}-%`;
  const { rows: samples } = await db.query<{ external_key: string; ids: string[]; occurrences: number; media: number; values: number }>(
    `SELECT s.external_key, array_agg(s.id::text) AS ids,
            (SELECT count(*) FROM records.occurrences o WHERE o.sample_id = ANY(array_agg(s.id)) AND NOT o.deleted)::int AS occurrences,
            (SELECT count(*) FROM records.occurrence_media m JOIN records.occurrences o ON o.id = m.occurrence_id
              WHERE o.sample_id = ANY(array_agg(s.id)) AND NOT m.deleted)::int AS media,
            (SELECT count(*) FROM records.occurrence_attribute_values v JOIN records.occurrences o ON o.id = v.occurrence_id
              WHERE o.sample_id = ANY(array_agg(s.id)) AND NOT v.deleted)::int AS values
       FROM records.samples s WHERE s.external_key LIKE $1 AND NOT s.deleted GROUP BY s.external_key`,
    [pattern],
  );
  const byKey = new Map(samples.map((row) => [row.external_key, row]));
  const lost = acknowledged.filter((outcome) => !byKey.get(outcome.externalKey)?.ids.includes(outcome.sampleId!)).map((outcome) => outcome.externalKey);
  const partial = samples.filter((row) => row.occurrences !== 2 || row.media !== 1 || row.values !== 2).map((row) => `${row.external_key} (${row.occurrences} occurrences, ${row.media} media, ${row.values} values)`);
  const duplicated = samples.filter((row) => row.ids.length > 1).map((row) => `${row.external_key} ×${row.ids.length}`);
  const told = new Set(acknowledged.map((outcome) => outcome.externalKey));
  const unacknowledged = samples.filter((row) => !told.has(row.external_key)).map((row) => row.external_key);
  const { rows: keyed } = await db.query<{ key: string; n: number }>(
    `SELECT k.key, jsonb_array_length(k.saved -> 'tree' -> 'samples') AS n FROM records.idempotency_keys k WHERE k.key LIKE $1 AND jsonb_array_length(k.saved -> 'tree' -> 'samples') <> 1`,
    [pattern],
  );
  duplicated.push(...keyed.map((row) => `Idempotency-Key ${row.key} saved ${row.n} samples`));

  const orphans: string[] = [];
  const orphanQueries: [string, string][] = [
    ['occurrences of a missing or deleted sample', `SELECT o.id::text AS id FROM records.occurrences o LEFT JOIN records.samples s ON s.id = o.sample_id WHERE NOT o.deleted AND (s.id IS NULL OR s.deleted)`],
    ['media of a missing or deleted occurrence', `SELECT m.id::text AS id FROM records.occurrence_media m LEFT JOIN records.occurrences o ON o.id = m.occurrence_id WHERE NOT m.deleted AND (o.id IS NULL OR o.deleted)`],
    ['media rows whose file media does not hold as claimed', `SELECT m.id::text AS id FROM records.occurrence_media m LEFT JOIN media.files f ON f.name = m.path WHERE NOT m.deleted AND m.path NOT LIKE 'http%' AND (f.name IS NULL OR f.state <> 'claimed')`],
    ['claimed files without a media row', `SELECT f.name AS id FROM media.files f WHERE f.state = 'claimed' AND f.deleted_on IS NULL AND NOT EXISTS (SELECT 1 FROM records.media_claims c WHERE c.path = f.name)`],
  ];
  const unconfirmed = await settled(async () => (await db.query<{ path: string }>('SELECT path FROM records.media_claims WHERE NOT confirmed AND released_on IS NULL')).rows, 30_000);
  for (const [what, sql] of orphanQueries) {
    const { rows } = await db.query<{ id: string }>(sql);
    if (rows.length) orphans.push(`${rows.length} ${what} (${rows.slice(0, 5).map((row) => row.id).join(', ')})`);
  }
  const { rows: claimedFiles } = await db.query<{ name: string }>(`SELECT name FROM media.files WHERE state = 'claimed' AND deleted_on IS NULL`);
  const missing = claimedFiles.filter((file) => !existsSync(join(mediaDir, 'files', file.name)));
  if (missing.length) orphans.push(`${missing.length} claimed files missing from storage (${missing.slice(0, 5).map((file) => file.name).join(', ')})`);

  const behind = async () =>
    (
      await db.query<{ id: string }>(
        `SELECT o.id::text FROM records.outbox o, reports.projector_cursor c WHERE c.name = 'outbox' AND (o.txid, o.id) > (c.txid, c.event_id) LIMIT 1`,
      )
    ).rows;
  const caughtUp = await settled(behind, 60_000);
  const mismatchQueries: [string, string][] = [
    ['samples missing from the read model', `SELECT s.id::text AS id FROM records.samples s WHERE NOT s.deleted AND NOT EXISTS (SELECT 1 FROM reports.samples r WHERE r.id = s.id)`],
    ['deleted samples still in the read model', `SELECT r.id::text AS id FROM reports.samples r LEFT JOIN records.samples s ON s.id = r.id WHERE s.id IS NULL OR s.deleted`],
    [
      'occurrences missing or different in the read model',
      `SELECT o.id::text AS id FROM records.occurrences o LEFT JOIN reports.occurrences r ON r.id = o.id
        WHERE NOT o.deleted AND (r.id IS NULL OR r.deleted OR r.sample_id <> o.sample_id OR r.taxa_taxon_list_id <> o.taxa_taxon_list_id)`,
    ],
    ['deleted occurrences live in the read model', `SELECT r.id::text AS id FROM reports.occurrences r JOIN records.occurrences o ON o.id = r.id WHERE o.deleted AND NOT r.deleted`],
  ];
  const readModelMismatches: string[] = [];
  for (const [what, sql] of mismatchQueries) {
    const { rows } = await db.query<{ id: string }>(sql);
    if (rows.length) readModelMismatches.push(`${rows.length} ${what} (${rows.slice(0, 5).map((row) => row.id).join(', ')})`);
  }
  return {
    acknowledged: acknowledged.length,
    present: samples.length,
    lost,
    partial,
    duplicated,
    unacknowledged,
    orphans,
    readModelMismatches,
    readModelCaughtUpAt: caughtUp.left.length ? null : caughtUp.at,
    unconfirmedMedia: unconfirmed.left.length,
  };
}
