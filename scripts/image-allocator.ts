// The allocator the images run every service with (the Dockerfile preloads Debian's libjemalloc2 and sets
// MALLOC_CONF; decisions/0040-the-images-allocate-with-jemalloc.md). The benchmark runs the services with it
// too, as a cluster does, when this machine has the library; it installs it where it can (root, apt-get).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DOCKERFILE = fileURLToPath(new URL('../Dockerfile', import.meta.url));

/** The MALLOC_CONF the images set (Dockerfile's runtime stage). */
export function imageMallocConf(dockerfile = readFileSync(DOCKERFILE, 'utf8')): string {
  const match = /^\s*MALLOC_CONF=(\S+)/m.exec(dockerfile);
  if (!match) throw new Error('the Dockerfile sets no MALLOC_CONF');
  return match[1];
}

/** The dynamic linker's list of libraries (`ldconfig -p`; ldconfig is in /sbin, which may not be on a user's PATH). */
function ldconfigListing(): string {
  for (const command of ['ldconfig', '/sbin/ldconfig']) {
    try {
      return execFileSync(command, ['-p'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      // the next one
    }
  }
  return '';
}

/** Where the linker's list (this machine's unless given) has libjemalloc.so.2, if anywhere. */
export function findJemalloc(listing = ldconfigListing()): string | undefined {
  return /^\s*libjemalloc\.so\.2 \(.*\) => (\S+)$/m.exec(listing)?.[1];
}

/** libjemalloc.so.2, installed with apt-get (Debian's libjemalloc2) when missing and this process may; the package lists are updated once if the first try fails. */
function installJemalloc(say: (message: string) => void): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const aptGet = (...args: string[]) => execFileSync('apt-get', args, { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  say('installing libjemalloc2 (apt-get), the allocator of the images');
  try {
    aptGet('install', '-y', '-q', 'libjemalloc2');
  } catch {
    try {
      aptGet('update', '-q');
      aptGet('install', '-y', '-q', 'libjemalloc2');
    } catch {
      return undefined;
    }
  }
  return findJemalloc();
}

/**
 * The variables that give a service the images' allocator, and what the report says of it: jemalloc
 * preloaded with the images' MALLOC_CONF, or glibc's malloc where the library cannot be had.
 */
export function imageAllocator(say: (message: string) => void): { env: Record<string, string>; described: string } {
  const library = findJemalloc() ?? installJemalloc(say);
  const conf = imageMallocConf();
  if (!library) return { env: {}, described: `glibc's malloc (libjemalloc.so.2 not found; the images preload jemalloc with MALLOC_CONF=${conf})` };
  return { env: { LD_PRELOAD: library, MALLOC_CONF: conf }, described: `jemalloc as in the images (${library}, MALLOC_CONF=${conf})` };
}
