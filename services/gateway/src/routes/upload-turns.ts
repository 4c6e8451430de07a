/**
 * Which upload bodies the gateway reads at a time (decision 0049).
 *
 * Every body being read holds message buffers, gRPC frames and pieces of the request in the
 * gateway; reading a few at a time, each at full speed, moves as many bytes a second as reading
 * all at once, with a fraction of that memory. A body waiting for its turn stays in its
 * connection, unread. So that a slow client cannot keep others waiting, a body gives its turn up
 * when nothing of it has come for `quietMs`, or when it has read for `turnMs` while others wait;
 * its next piece puts it back in the queue.
 */
import { prom, use } from '@rex/telemetry';

export type UploadTurnsOptions = { atOnce: number; quietMs: number; turnMs: number };

export const DEFAULT_UPLOAD_TURNS: UploadTurnsOptions = { atOnce: 8, quietMs: 50, turnMs: 250 };

type State = 'waiting' | 'reading' | 'given up' | 'left';

/** One body's place: `read` is called whenever the body may be read (again). */
export class Turn {
  state: State = 'waiting';
  since = 0;
  lastPiece = 0;
  readonly read: () => void;
  private readonly turns: UploadTurns;

  constructor(turns: UploadTurns, read: () => void) {
    this.turns = turns;
    this.read = read;
  }

  /** A piece of the body came; false when the body must pause until `read` is called again. */
  piece(): boolean {
    if (this.state === 'given up') this.turns.queue(this);
    if (this.state !== 'reading') return false;
    this.lastPiece = this.turns.now();
    return true;
  }

  /** The body is read, or the upload failed: the turn goes to the next body. */
  leave(): void {
    this.turns.leave(this);
  }
}

export class UploadTurns {
  private readonly reading = new Set<Turn>();
  private readonly waiting: Turn[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly options: UploadTurnsOptions;
  readonly now: () => number;

  constructor(options: UploadTurnsOptions = DEFAULT_UPLOAD_TURNS, now: () => number = () => performance.now()) {
    this.options = options;
    this.now = now;
  }

  /** Bodies being read, and bodies waiting for a turn. */
  get counts(): { reading: number; waiting: number } {
    return { reading: this.reading.size, waiting: this.waiting.length };
  }

  /** A body's turn; its `read` is called at once when a turn is free, otherwise once one is. */
  join(read: () => void): Turn {
    const turn = new Turn(this, read);
    this.queue(turn);
    return turn;
  }

  queue(turn: Turn): void {
    if (turn.state === 'left') return;
    turn.state = 'waiting';
    this.waiting.push(turn);
    this.admit();
  }

  leave(turn: Turn): void {
    if (turn.state === 'left') return;
    if (turn.state === 'waiting') this.waiting.splice(this.waiting.indexOf(turn), 1);
    this.reading.delete(turn);
    turn.state = 'left';
    this.admit();
  }

  /** Bodies that have been quiet, or have had their turn, give it to those waiting. */
  rotate(): void {
    const now = this.now();
    for (const turn of this.reading) {
      if (this.waiting.length <= this.options.atOnce - this.reading.size) break;
      if (now - turn.lastPiece >= this.options.quietMs || now - turn.since >= this.options.turnMs) {
        this.reading.delete(turn);
        turn.state = 'given up';
      }
    }
    this.admit();
  }

  private admit(): void {
    while (this.reading.size < this.options.atOnce && this.waiting.length > 0) {
      const turn = this.waiting.shift()!;
      turn.state = 'reading';
      turn.since = turn.lastPiece = this.now();
      this.reading.add(turn);
      turn.read();
    }
    if (this.waiting.length > 0 && !this.timer) {
      this.timer = setInterval(() => this.rotate(), Math.max(1, Math.min(this.options.quietMs, this.options.turnMs) / 2));
      this.timer.unref();
    } else if (this.waiting.length === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** Bodies waiting for a turn, as a gauge (rex_upload_bodies_waiting) of the turns given. */
export function watchUploadTurns(turns: UploadTurns): UploadTurns {
  use(
    new prom.Gauge({
      name: 'rex_upload_bodies_waiting',
      help: 'Upload bodies waiting, unread, for a turn to be read (UPLOADS_READ_AT_ONCE are read at once)',
      registers: [],
      collect() {
        this.set(turns.counts.waiting);
      },
    }),
  );
  return turns;
}
