import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DEADLINE_MARGIN_MS, ScopeOfCall, currentCall, inCallScope } from '../../src/call-scope.ts';

/** A call as grpc-js shows it to a handler: cancelled once, with a 'cancelled' event. */
class FakeCall extends EventEmitter {
  cancelled = false;
  private readonly deadline: number;
  constructor(deadline = Infinity) {
    super();
    this.deadline = deadline;
  }
  getDeadline() {
    return this.deadline;
  }
  cancel() {
    this.cancelled = true;
    this.emit('cancelled', 'cancelled');
  }
}

describe('the call scope', () => {
  it("when the caller's cancel arrives just before this end's own deadline, then the call ran out of time; well before it, the caller cancelled", async () => {
    const endedWith = async (deadlineIn: number) => {
      const call = new FakeCall(Date.now() + deadlineIn);
      let scope!: ScopeOfCall;
      await inCallScope(call, async () => {
        scope = currentCall() as ScopeOfCall;
        call.cancel();
      });
      return scope.cancelledByCaller;
    };
    // The caller's deadline passed first and its cancel came in before this end's deadline.
    expect(await endedWith(DEADLINE_MARGIN_MS / 5)).toBe(false);
    expect(await endedWith(-10)).toBe(false);
    expect(await endedWith(5_000)).toBe(true);
  });

  it('when the client cancels while the handler runs, then the scope has ended and every listener hears it once', async () => {
    const call = new FakeCall(Date.now() + 5_000);
    const heard: string[] = [];
    await inCallScope(call, async () => {
      const scope = currentCall()!;
      expect(scope.deadline).toBeGreaterThan(Date.now());
      scope.onEnd(() => heard.push('first'));
      const stop = scope.onEnd(() => heard.push('removed'));
      scope.onEnd(() => heard.push('second'));
      stop();
      expect(scope.ended).toBe(false);
      call.cancel();
      call.cancel();
      expect(scope.ended).toBe(true);
    });
    expect(heard).toEqual(['first', 'second']);
  });

  it('when a handler leaves work running after it answered, then what becomes of the call later is not that work\'s end', async () => {
    const call = new FakeCall();
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    let background!: Promise<{ ended: boolean; heard: boolean }>;
    await inCallScope(call, async () => {
      background = (async () => {
        await later;
        const scope = currentCall()!;
        let heard = false;
        scope.onEnd(() => (heard = true));
        call.cancel();
        return { ended: scope.ended, heard };
      })();
    });
    release();
    expect(await background).toEqual({ ended: false, heard: false });
    expect(call.listenerCount('cancelled')).toBe(0);
  });

  it('when the call had ended by the time its handler settled, then work it left running sees it ended', async () => {
    const call = new FakeCall();
    let background!: Promise<boolean>;
    await inCallScope(call, async () => {
      call.cancel();
      background = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return currentCall()!.ended;
      })();
    });
    expect(await background).toBe(true);
  });
});
