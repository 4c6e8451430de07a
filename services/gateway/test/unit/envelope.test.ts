import { describe, expect, it } from 'vitest';
import { fromJsonValues } from '@rex/protos';
import { envelope, toSubmission } from '../../src/envelope.ts';
import { HttpError } from '../../src/http-error.ts';

describe('toSubmission', () => {
  it('when values hold texts, numbers, booleans, nulls and lists, then each becomes a field value', () => {
    const submission = toSubmission('sample', { values: { a: 'x', b: 2.5, c: true, d: false, e: null, f: ['1', 2, true] } });
    expect(fromJsonValues(submission.values)).toEqual({ a: 'x', b: '2.5', c: 't', d: 'f', e: null, f: ['1', '2', 't'] });
  });

  it('when children are nested, then each is read with its own entity', () => {
    const submission = toSubmission('sample', {
      values: {},
      occurrences: [{ values: { taxa_taxon_list_id: 1 }, media: [{ values: { queued: 'a.jpg' } }] }],
      samples: [{ values: { comment: 'child' } }],
    });
    expect(fromJsonValues(submission.occurrences?.[0].values)).toEqual({ taxa_taxon_list_id: '1' });
    expect(fromJsonValues(submission.occurrences?.[0].media?.[0].values)).toEqual({ queued: 'a.jpg' });
    expect(fromJsonValues(submission.samples?.[0].values)).toEqual({ comment: 'child' });
  });

  it('when an occurrence value is an object, then 400 names occurrence:<field>', () => {
    try {
      toSubmission('sample', { values: {}, occurrences: [{ values: { x: { y: 1 } } }] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).detail).toEqual({ 'occurrence:x': 'Must be a text, number, boolean, null or a list of those.' });
    }
  });

  it('when a child list is not an array, then 400', () => {
    expect(() => toSubmission('sample', { values: {}, occurrences: {} })).toThrow(HttpError);
  });
});

describe('envelope', () => {
  it('when children were saved, then each gets the href of its own resource', () => {
    const stamp = (id: string) => ({ json: JSON.stringify({ id }) });
    const body = envelope(
      {
        entity: 'sample',
        values: stamp('7'),
        occurrences: [{ entity: 'occurrence', values: stamp('8'), occurrences: [], samples: [], media: [{ entity: 'occurrence_medium', values: stamp('9'), occurrences: [], samples: [], media: [], version: '', replayed: false }], version: '', replayed: false }],
        samples: [],
        media: [],
        version: '7',
        replayed: false,
      },
      'http://h/index.php/services',
    );
    expect(body).toEqual({
      values: { id: '7' },
      href: 'http://h/index.php/services/rest/samples/7',
      occurrences: [
        {
          values: { id: '8' },
          href: 'http://h/index.php/services/rest/occurrences/8',
          media: [{ values: { id: '9' }, href: 'http://h/index.php/services/rest/occurrence_media/9' }],
        },
      ],
    });
  });
});
