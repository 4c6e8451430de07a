import type { Request, Response } from 'express';
import type { JsonValues } from '@rex/protos';

/**
 * Answers `text`, a JSON document, with `status`: the bytes, headers and HEAD handling of
 * Express's `res.json` for the API's answers (the app sets no ETag of its own and no JSON
 * replacer, spaces or escaping), written without its lookups of the app's settings, content-type
 * parsing and freshness check, which every answer of the hot paths paid for.
 */
export function sendJsonText(req: Request, res: Response, text: string, status = 200): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (req.method === 'HEAD') res.end();
  else res.end(text);
}

/** Answers `body` as JSON with `status` (see sendJsonText). */
export function sendJson(req: Request, res: Response, body: unknown, status = 200): void {
  sendJsonText(req, res, JSON.stringify(body), status);
}

/**
 * `{"values":{…}}` with a record's values as the records service wrote them (one JSON object of
 * texts, nulls and lists of texts, `toJsonValues`), not parsed and written again: the gateway only
 * passes them on (decision 0046).
 */
export const valuesObjectText = (values: JsonValues | null | undefined): string => `{"values":${values?.json || '{}'}}`;
