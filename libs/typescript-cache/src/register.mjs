// Preloaded first (`node --import <this file>`, before @rex/telemetry/register): a TypeScript
// module whose types were stripped ahead of time (strip.ts) loads from that copy, so Node.js
// never loads its own type stripper, a WebAssembly build of swc that keeps about 20 MB of the
// process's memory for as long as it runs. A module without a copy (added or changed since the
// copies were made) is stripped by Node.js as before. Plain JavaScript, so that loading this
// file does not itself load the stripper.
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { strippedPath } from './cache.mjs';

registerHooks({
  load(url, context, nextLoad) {
    if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
    let source;
    try {
      source = readFileSync(strippedPath(readFileSync(new URL(url))), 'utf8');
    } catch {
      return nextLoad(url, context);
    }
    return { format: 'module', source, shortCircuit: true };
  },
});
