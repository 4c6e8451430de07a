// PostgreSQL resolves a bare name in ORDER BY to an output column before a table's column. A
// statement that selects `txid::text` (named txid) or `id::text AS id` and orders by `txid` or `id`
// sorts by the text, in which 100000 comes before 99999. The projector lost outbox events so, and
// "the first" record with an external key was not the first. A statement that casts a column to
// text in its output orders by the column qualified (`o.txid`), which always means the table's.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The .ts and .sql files under `dir`, without dependencies and tests. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'test', 'generated'].includes(entry.name) ? [] : sources(path);
    return /\.(ts|sql)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The bare names a statement orders by that are also outputs cast to text: `x::text` (named x)
 * or `... ::text AS x`. The statement is the text from the last SELECT before its ORDER BY.
 */
function textOrderedOutputs(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/ORDER BY\s+([a-z_][a-z0-9_]*)(?![.a-z0-9_(])/gi)) {
    const name = match[1];
    const before = source.slice(0, match.index);
    const statement = before.slice(before.lastIndexOf('SELECT'));
    const castNamed = new RegExp(`(?:^|[\\s,(.])${name}::(?:text|varchar)\\b(?!\\s+AS\\b)`, 'i');
    const castAliased = new RegExp(`::(?:text|varchar)\\s+AS\\s+${name}\\b`, 'i');
    if (castNamed.test(statement) || castAliased.test(statement)) found.push(`${name}: ${statement.replace(/\s+/g, ' ').slice(0, 120)}`);
  }
  return found;
}

describe('statements ordered by a name', () => {
  it('when a statement casts an output to text, then it does not order by that output', () => {
    const offending = ['services', 'libs'].flatMap((dir) => sources(join(ROOT, dir))).flatMap((file) =>
      textOrderedOutputs(readFileSync(file, 'utf8')).map((what) => `${file.slice(ROOT.length + 1)}: ${what}`),
    );
    expect(offending).toEqual([]);
  });

  it('when the check reads the statements that sorted by text, then it names them, and passes their corrected form', () => {
    expect(textOrderedOutputs('SELECT id, txid::text, entity FROM records.outbox WHERE txid < $1 ORDER BY txid, id LIMIT $3')).toHaveLength(1);
    expect(textOrderedOutputs('SELECT id::text FROM records.samples WHERE website_id = $1 ORDER BY id LIMIT 1')).toHaveLength(1);
    expect(textOrderedOutputs('SELECT o.id, o.txid::text AS txid FROM records.outbox o ORDER BY txid')).toHaveLength(1);
    expect(textOrderedOutputs('SELECT o.id, o.txid::text AS txid FROM records.outbox o ORDER BY o.txid, o.id LIMIT $3')).toEqual([]);
    expect(textOrderedOutputs('SELECT t.id::text FROM records.samples t ORDER BY t.id LIMIT 1')).toEqual([]);
    expect(textOrderedOutputs('SELECT name, size::text FROM media.files ORDER BY name')).toEqual([]);
  });
});
