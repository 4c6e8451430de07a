// Files as clients upload them to the media queue.
import { crc32, deflateSync } from 'node:zlib';
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

/** A real PNG of `width` × `height` (a colour gradient), which image libraries can decode. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const stride = width * 3 + 1;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set([(x * 255) / width, (y * 255) / height, 128], y * stride + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** The width and height a PNG's header gives. */
export const pngSize = (file: Buffer) => ({ width: file.readUInt32BE(16), height: file.readUInt32BE(20) });
