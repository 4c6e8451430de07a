import { describe, expect, it } from 'vitest';
import { UploadTurns, type Turn } from '../../src/routes/upload-turns.ts';

/** Turns on a clock the test moves; `reads` counts each body's calls to read. */
function setUp(atOnce = 2) {
  let clock = 0;
  const turns = new UploadTurns({ atOnce, quietMs: 50, turnMs: 250 }, () => clock);
  const reads = new Map<string, number>();
  const body = (name: string): Turn => turns.join(() => reads.set(name, (reads.get(name) ?? 0) + 1));
  return { turns, reads, body, advance: (ms: number) => (clock += ms) };
}

describe('upload bodies read in turns', () => {
  it('when more bodies come than are read at once, then the first are read at once and the others wait, in order, until one leaves', () => {
    const { turns, reads, body } = setUp(2);
    const [a, b] = [body('a'), body('b')];
    body('c');
    body('d');
    expect([...reads.keys()]).toEqual(['a', 'b']);
    expect(turns.counts).toEqual({ reading: 2, waiting: 2 });
    a.leave();
    expect([...reads.keys()]).toEqual(['a', 'b', 'c']);
    b.leave();
    expect([...reads.keys()]).toEqual(['a', 'b', 'c', 'd']);
    expect(turns.counts).toEqual({ reading: 2, waiting: 0 });
  });

  it('when a body waiting for its turn leaves (its client went away), then it is never read and the next is', () => {
    const { reads, body } = setUp(1);
    const a = body('a');
    body('b').leave();
    body('c');
    a.leave();
    expect([...reads.keys()]).toEqual(['a', 'c']);
  });

  it('when a body brings nothing for 50 ms while another waits, then it gives its turn up, and its next piece queues it again', () => {
    const { turns, reads, body, advance } = setUp(1);
    const slow = body('slow');
    body('fast');
    advance(49);
    expect(slow.piece()).toBe(true);
    advance(49);
    turns.rotate();
    expect(reads.get('fast')).toBeUndefined();
    advance(1);
    turns.rotate();
    expect(reads.get('fast')).toBe(1);
    // Its next piece is taken, and the body pauses until it has a turn again.
    expect(slow.piece()).toBe(false);
    expect(turns.counts).toEqual({ reading: 1, waiting: 1 });
    expect(reads.get('slow')).toBe(1);
  });

  it('when a body has been read for 250 ms while others wait, then it goes behind them, however much it brings', () => {
    const { turns, reads, body, advance } = setUp(1);
    const busy = body('busy');
    const next = body('next');
    for (let ms = 0; ms < 240; ms += 10) {
      advance(10);
      expect(busy.piece()).toBe(true);
      turns.rotate();
    }
    expect(reads.get('next')).toBeUndefined();
    advance(10);
    turns.rotate();
    expect(reads.get('next')).toBe(1);
    expect(busy.piece()).toBe(false);
    next.leave();
    expect(reads.get('busy')).toBe(2);
    expect(busy.piece()).toBe(true);
  });

  it('when nobody waits, then a quiet or long body keeps its turn', () => {
    const { turns, body, advance } = setUp(1);
    const only = body('only');
    advance(10_000);
    turns.rotate();
    expect(only.piece()).toBe(true);
    expect(turns.counts).toEqual({ reading: 1, waiting: 0 });
  });

  it('when turns are free, then no body gives its up for those waiting', () => {
    const { turns, body, advance } = setUp(3);
    const a = body('a');
    advance(1_000);
    body('b');
    turns.rotate();
    expect(a.piece()).toBe(true);
    expect(turns.counts).toEqual({ reading: 2, waiting: 0 });
  });

  it('when a body leaves twice, or after giving its turn up, then the count of bodies read stays right', () => {
    const { turns, body, advance } = setUp(1);
    const a = body('a');
    body('b');
    advance(60);
    turns.rotate();
    a.leave();
    a.leave();
    expect(turns.counts).toEqual({ reading: 1, waiting: 0 });
    expect(a.piece()).toBe(false);
  });
});
