import { z } from '@rex/config';
import { AUTH_FIXTURES } from '@rex/gateway/admin';
import { RECORDS_FIXTURES } from '@rex/records/admin';

/** A fixtures file: the entries of each schema, defined (and written) by the schema's owner. */
export const Fixtures = z.object({ ...AUTH_FIXTURES, ...RECORDS_FIXTURES }).strict();

export type Fixtures = z.infer<typeof Fixtures>;

export class FixturesError extends Error {}

/** Validates a fixtures document; every problem names its entry, e.g. `users[1].websites[0].role`. */
export function parseFixtures(raw: unknown): Fixtures {
  const result = Fixtures.safeParse(raw);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const path = issue.path.reduce<string>(
      (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
      '',
    );
    const message = issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message;
    return `  ${path || '(document)'}: ${message}`;
  });
  throw new FixturesError(`the fixtures file is not valid:\n${lines.join('\n')}`);
}
