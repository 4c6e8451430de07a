import { describe, expect, it } from 'vitest';
import { UploadTurns, type Turn } from '../../src/routes/upload-turns.ts';

const FAST = 300 * 1024;

/** Turns on a clock the test moves (windows of 50 ms, fast above 256 KiB a window); `reads` counts each body's calls to read. */
function setUp(atOnce = 2) {
  let clock = 0;
  const turns = new UploadTurns({ atOnce, slowBytes: 256 * 1024, windowMs: 50, turnMs: 250 }, () => clock);
  const reads = new Map<string, number>();
  const bodies: Turn[] = [];
  const body = (name: string): Turn => {
    const turn = turns.join(() => reads.set(name, (reads.get(name) ?? 0) + 1));
    bodies.push(turn);
    return turn;
  };
  /** Moves the clock a window on, each body given bringing `bytes` first. */
  const windowOf = (bytes: Map<Turn, number>) => {
    for (const [turn, n] of bytes) turn.piece(n);
    clock += 50;
    turns.judge();
  };
  return { turns, reads, body, windowOf, advance: (ms: number) => (clock += ms) };
}

describe('upload bodies read in turns', () => {
  it('when more bodies come than are read at once, then the first are read at once and the others wait, in order, until one leaves', () => {
    const { turns, reads, body } = setUp(2);
    const [a, b] = [body('a'), body('b')];
    body('c');
    body('d');
    expect([...reads.keys()]).toEqual(['a', 'b']);
    expect(turns.counts).toEqual({ reading: 2, slow: 0, waiting: 2 });
    a.leave();
    expect([...reads.keys()]).toEqual(['a', 'b', 'c']);
    b.leave();
    expect([...reads.keys()]).toEqual(['a', 'b', 'c', 'd']);
    expect(turns.counts).toEqual({ reading: 2, slow: 0, waiting: 0 });
  });

  it('when a body waiting for its turn leaves (its client went away), then it is never read and the next is', () => {
    const { reads, body } = setUp(1);
    const a = body('a');
    body('b').leave();
    body('c');
    a.leave();
    expect([...reads.keys()]).toEqual(['a', 'c']);
  });

  it('when a body with a turn brings less than 256 KiB in its window (a slow or stalled client), then it gives the turn up and is still read as it comes', () => {
    const { turns, reads, body, windowOf } = setUp(1);
    const slow = body('slow');
    body('next');
    windowOf(new Map([[slow, 100 * 1024]]));
    expect(reads.get('next')).toBe(1);
    expect(turns.counts).toEqual({ reading: 1, slow: 1, waiting: 0 });
    // However many pieces it brings while it stays slow.
    expect(slow.piece(1)).toBe(true);
    windowOf(new Map([[slow, 10]]));
    expect(slow.piece(1)).toBe(true);
  });

  it('when any number of bodies are slow, then none of them waits for another', () => {
    const { turns, body, windowOf } = setUp(1);
    const many = Array.from({ length: 50 }, (_, i) => body(`b${i}`));
    for (let window = 0; window < 60; window++) windowOf(new Map(many.map((turn) => [turn, 64 * 1024])));
    expect(turns.counts).toEqual({ reading: 0, slow: 50, waiting: 0 });
    expect(many.every((turn) => turn.piece(1024))).toBe(true);
  });

  it('when a body read as slow brings 256 KiB or more in a window, then its next piece waits for a turn', () => {
    const { turns, reads, body, windowOf } = setUp(1);
    const quick = body('quick');
    const other = body('other');
    windowOf(new Map([[quick, 10]]));
    expect(turns.counts).toEqual({ reading: 1, slow: 1, waiting: 0 });
    windowOf(new Map([[quick, FAST], [other, FAST]]));
    expect(quick.piece(1)).toBe(false);
    expect(turns.counts).toEqual({ reading: 1, slow: 0, waiting: 1 });
    other.leave();
    expect(reads.get('quick')).toBe(2);
    expect(quick.piece(1)).toBe(true);
  });

  it('when the gateway holds a body back (media is behind), then it is not slow meanwhile and keeps its turn', () => {
    const { turns, reads, body, windowOf } = setUp(1);
    const held = body('held');
    body('next');
    held.holdBack(true);
    windowOf(new Map());
    windowOf(new Map());
    expect(reads.get('next')).toBeUndefined();
    // Let go, it is judged again by what it brings.
    held.holdBack(false);
    windowOf(new Map());
    windowOf(new Map());
    expect(reads.get('next')).toBe(1);
    expect(turns.counts.slow).toBe(1);
  });

  it('when a fast body has read for 250 ms while others wait, then it goes behind them, and on again once a turn is free', () => {
    const { turns, reads, body, windowOf } = setUp(1);
    const busy = body('busy');
    const next = body('next');
    for (let window = 0; window < 4; window++) windowOf(new Map([[busy, FAST]]));
    expect(reads.get('next')).toBeUndefined();
    windowOf(new Map([[busy, FAST]]));
    expect(reads.get('next')).toBe(1);
    expect(busy.piece(FAST)).toBe(false);
    expect(turns.counts).toEqual({ reading: 1, slow: 0, waiting: 1 });
    next.leave();
    expect(reads.get('busy')).toBe(2);
    expect(busy.piece(FAST)).toBe(true);
  });

  it('when nobody waits, then a fast body keeps its turn however long it reads', () => {
    const { turns, body, windowOf } = setUp(1);
    const only = body('only');
    for (let window = 0; window < 100; window++) windowOf(new Map([[only, FAST]]));
    expect(only.piece(FAST)).toBe(true);
    expect(turns.counts).toEqual({ reading: 1, slow: 0, waiting: 0 });
  });

  it('when a body is judged before a whole window since its turn began, then it is not taken for slow', () => {
    const { turns, body, advance } = setUp(1);
    const late = body('late');
    body('next');
    advance(40);
    turns.judge();
    expect(turns.counts).toEqual({ reading: 1, slow: 0, waiting: 1 });
    late.piece(FAST);
    advance(10);
    turns.judge();
    expect(turns.counts).toEqual({ reading: 1, slow: 0, waiting: 1 });
  });

  it('when a body leaves twice, or after giving its turn up, then the counts stay right', () => {
    const { turns, body, windowOf } = setUp(1);
    const a = body('a');
    const b = body('b');
    windowOf(new Map());
    a.leave();
    a.leave();
    expect(turns.counts).toEqual({ reading: 1, slow: 0, waiting: 0 });
    expect(a.piece(1)).toBe(false);
    b.leave();
    expect(turns.counts).toEqual({ reading: 0, slow: 0, waiting: 0 });
  });
});
