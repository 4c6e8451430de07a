import { describe, expect, it } from 'vitest';
import { findJemalloc, imageMallocConf } from '../image-allocator.ts';

describe("the images' allocator, as the benchmark runs the services with it", () => {
  it('when the Dockerfile is read, then its MALLOC_CONF has jemalloc give freed pages back from a thread of its own, in two arenas', () => {
    const conf = imageMallocConf().split(',');
    expect(conf).toContain('background_thread:true');
    expect(conf).toContain('narenas:2');
    expect(() => imageMallocConf('FROM debian\nENV LD_PRELOAD=/x.so\n')).toThrow(/no MALLOC_CONF/);
  });

  it("when ldconfig lists libjemalloc.so.2, then its path is the one preloaded, and none when it is not listed", () => {
    const listing = [
      '123 libs found in cache `/etc/ld.so.cache\'',
      '\tlibjemalloc.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
      '\tlibjpeg.so.62 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libjpeg.so.62',
    ].join('\n');
    expect(findJemalloc(listing)).toBe('/usr/lib/x86_64-linux-gnu/libjemalloc.so.2');
    expect(findJemalloc('\tlibjpeg.so.62 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libjpeg.so.62')).toBeUndefined();
  });
});
