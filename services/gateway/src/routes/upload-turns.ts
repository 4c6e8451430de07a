import { prom, use } from '@rex/telemetry';

/**
 * Which upload bodies the gateway reads at full speed (decision 0049).
 *
 * Every body that arrives faster than the media service takes it fills message buffers, gRPC
 * frames and pieces of the request in the gateway. Reading a few such bodies at a time moves as
 * many bytes a second as reading all of them at once, with a fraction of that memory: so at most
 * `atOnce` bodies have a turn, and a fast body without one waits, unread, in its connection.
 *
 * A body that brings less than `slowBytes` in a window of `windowMs` is slow: its client, not the
 * gateway, sets its pace, and it holds little. It gives its turn up and is read as it comes,
 * outside the turns, for as long as it stays slow; so a slow or stalled client holds a turn for
 * one window at most, however many there are. A body with a turn gives it up after `turnMs` if
 * others wait, and waits behind them.
 */
export type UploadTurnsOptions = { atOnce: number; slowBytes: number; windowMs: number; turnMs: number };

export const DEFAULT_UPLOAD_TURNS: UploadTurnsOptions = { atOnce: 4, slowBytes: 256 * 1024, windowMs: 50, turnMs: 250 };

/** `reading`: has a turn; `slow`: read outside the turns; `due`: must wait at its next piece; `waiting`: paused for a turn. */
type State = 'reading' | 'slow' | 'due' | 'waiting' | 'left';

/** One body's place: `read` is called whenever the body may be read again after a pause. */
export class Turn {
  state: State = 'waiting';
  since = 0;
  /** Bytes brought in the current window, and when it began. */
  bytes = 0;
  windowStart = 0;
  /** The gateway holds the body back (the media service is behind), and whether it did in this window: the body is not slow meanwhile. */
  held = false;
  heldInWindow = false;
  readonly read: () => void;
  private readonly turns: UploadTurns;

  constructor(turns: UploadTurns, read: () => void) {
    this.turns = turns;
    this.read = read;
  }

  /** A piece of `bytes` came; false when the body must pause until `read` is called. */
  piece(bytes: number): boolean {
    this.bytes += bytes;
    if (this.state === 'due') this.turns.queue(this);
    return this.state === 'reading' || this.state === 'slow';
  }

  /** The gateway holds the body back until the media service takes its bytes, or lets it go on. */
  holdBack(held: boolean): void {
    this.held = held;
    if (held) this.heldInWindow = true;
  }

  /** The body is read, or the upload failed: its turn goes to the next body. */
  leave(): void {
    this.turns.leave(this);
  }
}

export class UploadTurns {
  private readonly bodies = new Set<Turn>();
  private readonly waiting: Turn[] = [];
  private reading = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly options: UploadTurnsOptions;
  readonly now: () => number;

  constructor(options: UploadTurnsOptions = DEFAULT_UPLOAD_TURNS, now: () => number = () => performance.now()) {
    this.options = options;
    this.now = now;
  }

  /** Bodies with a turn, read outside the turns as slow, and waiting for a turn. */
  get counts(): { reading: number; slow: number; waiting: number } {
    let slow = 0;
    for (const body of this.bodies) if (body.state === 'slow') slow++;
    return { reading: this.reading, slow, waiting: this.waiting.length };
  }

  /** A body's place; its `read` is called at once when a turn is free, otherwise once one is. */
  join(read: () => void): Turn {
    const turn = new Turn(this, read);
    this.bodies.add(turn);
    this.queue(turn);
    this.watch();
    return turn;
  }

  queue(turn: Turn): void {
    turn.state = 'waiting';
    this.waiting.push(turn);
    this.admit();
  }

  leave(turn: Turn): void {
    if (turn.state === 'left') return;
    if (turn.state === 'waiting') this.waiting.splice(this.waiting.indexOf(turn), 1);
    if (turn.state === 'reading') this.reading--;
    turn.state = 'left';
    this.bodies.delete(turn);
    this.admit();
    this.watch();
  }

  /** After each body's window: slow bodies give their turns up, fast ones outside the turns must wait for one, and long turns go to those waiting. */
  judge(): void {
    const now = this.now();
    const { slowBytes, windowMs, turnMs } = this.options;
    for (const turn of this.bodies) {
      if (turn.state === 'waiting' || now - turn.windowStart < windowMs) continue;
      const slow = turn.bytes < slowBytes && !turn.heldInWindow;
      turn.bytes = 0;
      turn.windowStart = now;
      turn.heldInWindow = turn.held;
      if (turn.state === 'reading' && (slow || (this.waiting.length > 0 && now - turn.since >= turnMs))) {
        this.reading--;
        turn.state = slow ? 'slow' : 'due';
      } else if (turn.state === 'slow' && !slow) {
        turn.state = 'due';
      }
    }
    this.admit();
  }

  private admit(): void {
    while (this.reading < this.options.atOnce && this.waiting.length > 0) {
      const turn = this.waiting.shift()!;
      turn.state = 'reading';
      turn.since = turn.windowStart = this.now();
      turn.bytes = 0;
      turn.heldInWindow = turn.held;
      this.reading++;
      turn.read();
    }
  }

  /** Bodies are judged once a window while there are any. */
  private watch(): void {
    if (this.bodies.size > 0 && !this.timer) {
      this.timer = setInterval(() => this.judge(), this.options.windowMs / 2);
      this.timer.unref();
    } else if (this.bodies.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** Bodies waiting for a turn, as a gauge (rex_upload_bodies_waiting). */
export function watchUploadTurns(turns: UploadTurns): UploadTurns {
  use(
    new prom.Gauge({
      name: 'rex_upload_bodies_waiting',
      help: 'Fast upload bodies waiting, unread, for a turn (UPLOADS_READ_AT_ONCE are read at full speed at once)',
      registers: [],
      collect() {
        this.set(turns.counts.waiting);
      },
    }),
  );
  return turns;
}
