import { describe, expect, it } from 'vitest';
import { detectType, isQueuedName, queueLimits, queuedName } from '../../src/domain/file-types.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');

describe('file types', () => {
  const { allowedTypes } = queueLimits(undefined);

  it('recognises allowed types by content', async () => {
    expect(await detectType(JPEG, allowedTypes)).toEqual({ extension: 'jpg', contentType: 'image/jpeg', mediaType: 'Image:Local' });
    expect((await detectType(PNG, allowedTypes))?.contentType).toBe('image/png');
    expect((await detectType(PDF, allowedTypes))?.extension).toBe('pdf');
  });

  it('refuses content it cannot recognise or that is not allowed', async () => {
    expect(await detectType(Buffer.from('<?php echo 1; ?>'), allowedTypes)).toBeUndefined();
    expect(await detectType(Buffer.alloc(0), allowedTypes)).toBeUndefined();
    expect(await detectType(PNG, queueLimits({ allowed_file_types: ['jpeg'] }).allowedTypes)).toBeUndefined();
  });

  it('treats jpeg and jpg as one type', async () => {
    expect(await detectType(JPEG, queueLimits({ allowed_file_types: ['JPEG'] }).allowedTypes)).toBeDefined();
  });

  it('names queued files with date folders and a random id', () => {
    const name = queuedName('jpg', new Date('2026-11-22T10:00:00Z'));
    expect(name).toMatch(/^26\/11\/22\/[0-9a-f]{24}\.jpg$/);
    expect(isQueuedName(name)).toBe(true);
    expect(isQueuedName('../secret.jpg')).toBe(false);
    expect(queuedName('jpg')).not.toBe(queuedName('jpg'));
  });

  it('defaults to 8 MiB', () => {
    expect(queueLimits(undefined).maxUploadSize).toBe(8 * 1024 * 1024);
    expect(queueLimits({ max_upload_size: 1000 }).maxUploadSize).toBe(1000);
  });
});
