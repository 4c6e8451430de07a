// Files as clients upload them to the media queue.
import { services } from './world.ts';

/** A JPEG header, filler and the end marker: recognised as image/jpeg by its content. */
export function jpeg(size = 2048): Buffer {
  const file = Buffer.alloc(size, 0x20);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]).copy(file);
  file[size - 2] = 0xff;
  file[size - 1] = 0xd9;
  return file;
}

/** Uploads files as a browser form would, field by field. */
export async function upload(files: [field: string, content: Buffer, filename: string, type?: string][], authToken: string) {
  const form = new FormData();
  for (const [field, content, filename, type] of files) form.append(field, new Blob([content], { type: type ?? 'application/octet-stream' }), filename);
  const response = await fetch(`${services()}/media-queue`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${authToken}` } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

/** Uploads one JPEG and answers its queued name. */
export async function queuedPhoto(authToken: string, size = 2048): Promise<string> {
  const answer = await upload([['photo', jpeg(size), 'photo.jpg', 'image/jpeg']], authToken);
  if (answer.status !== 200) throw new Error(`upload failed: ${answer.status} ${answer.text}`);
  return answer.body.photo.name;
}

export { png, pngSize } from '../../scripts/images-in-memory.ts';
