import { describe, expect, it } from 'vitest';
import { redactedQuery } from '../../src/request-span.ts';

describe('the query string a request span shows', () => {
  it('when a query holds credentials or signatures, then their values are replaced, whatever the case or encoding of their names', () => {
    expect(redactedQuery('user=alice&secret=s3cr3t&limit=3')).toBe('user=REDACTED&secret=REDACTED&limit=3');
    expect(redactedQuery('auth_token=abc&X-Amz-Signature=f00&%73ecret=x&Token=y')).toBe('auth_token=REDACTED&X-Amz-Signature=REDACTED&%73ecret=REDACTED&Token=REDACTED');
  });

  it('when a query holds nothing secret, or a name that does not decode, then it is shown as sent', () => {
    expect(redactedQuery('taxa_taxon_list_id=12&date_from=2024-01-01&flag')).toBe('taxa_taxon_list_id=12&date_from=2024-01-01&flag');
    expect(redactedQuery('%E0%A4%A=1&limit=2')).toBe('%E0%A4%A=1&limit=2');
  });
});
