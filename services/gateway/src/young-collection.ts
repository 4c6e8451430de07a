import v8 from 'node:v8';
import vm from 'node:vm';
import { prom, use } from '@rex/telemetry';

/** Bytes of answers passed on (exports, downloads) after which the young generation is collected. */
export const YOUNG_COLLECTION_BYTES = 2 * 2 ** 20;

const youngCollections = new prom.Counter({
  name: 'rex_young_collections_total',
  help: 'Young-generation collections the gateway ran, one for every YOUNG_COLLECTION_BYTES (2 MiB) of answers it streamed',
  registers: [],
});

/**
 * V8's young-generation collection (a scavenge), which the process may run itself. `gc` is given
 * to contexts made once `--expose-gc` is set; the flag changes nothing else.
 *
 * Allocation-site pretenuring is turned off with it. Every `Buffer.concat` and `Buffer.allocUnsafe`
 * of any size past Node.js's pool makes its buffer at one place in Node.js (gRPC's decoder does
 * for every message it reads); under load V8 sees buffers made there survive while requests
 * wait, and from then on makes them all in the old generation, where no young collection reaches:
 * after a minute of GETs, a million-row export left 35 MB of dead buffers again. Without it the
 * gateway answers as many GETs (decision 0042).
 */
function scavenge(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--no-allocation-site-pretenuring');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as (options: { type: 'minor' }) => void;
    return () => gc({ type: 'minor' });
  } catch {
    return undefined;
  }
}

/**
 * Counts the bytes of answers passed on and collects the young generation after every
 * `everyBytes` of them (decision 0042).
 *
 * The pieces of an answer streamed from a backend (HTTP/2 reads, gRPC messages) are buffers
 * outside V8's heap behind small objects in its young generation. V8 runs a young collection only
 * once that generation is full of objects (16 MiB semi-spaces here), and a full one once buffers
 * have grown by 64 MiB since the last: a million-row export left 40 MB of dead buffers in the
 * gateway and grew it by 65 MB. Pieces already written are dead by the next collection, which
 * then costs little.
 */
export function youngCollector(everyBytes = YOUNG_COLLECTION_BYTES, collect = scavenge()): (bytes: number) => void {
  use(youngCollections);
  let passed = 0;
  return (bytes) => {
    passed += bytes;
    if (passed < everyBytes || !collect) return;
    passed = 0;
    collect();
    youngCollections.inc();
  };
}

/** The gateway's collector: every answer passed on counts towards the same collections. */
export const passedOn = youngCollector();
