import type { Request, Response } from 'express';

/**
 * Answers `body` as JSON with `status`: the bytes, headers and HEAD handling of Express's
 * `res.json` for the API's answers (the app sets no ETag of its own and no JSON replacer, spaces
 * or escaping), written without its lookups of the app's settings, content-type parsing and
 * freshness check, which every answer of the hot paths paid for.
 */
export function sendJson(req: Request, res: Response, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (req.method === 'HEAD') res.end();
  else res.end(text);
}
