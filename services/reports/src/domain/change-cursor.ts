// A change feed cursor: opaque to clients (they may only hand it back), a
// position in reports.changes inside.

const PREFIX = 'c1.';

export function encodeCursor(seq: string): string {
  return Buffer.from(`${PREFIX}${seq}`).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this feed handed out. */
export function decodeCursor(cursor: string): string | undefined {
  if (cursor.length > 64 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!text.startsWith(PREFIX)) return undefined;
  const seq = text.slice(PREFIX.length);
  return /^(0|[1-9]\d{0,17})$/.test(seq) ? seq : undefined;
}
