import express, { type Request, type Response } from 'express';
import type { ForwardChunk__Output, SearchOptions } from '@rex/protos';
import type { RestConfig } from '@rex/rest-config';
import { toAuthContext, type Caller } from '../auth/caller.ts';
import type { SearchClient } from '../clients/search.ts';
import { HttpError } from '../http-error.ts';
import type { Route } from './route.ts';
import { streamAnswer } from './stream-answer.ts';

/** A method's `resource_options.search_index` (or `elasticsearch`): a list of names, or names → options. */
function methodEndpoints(caller: Caller): Map<string, SearchOptions> | undefined {
  const raw = caller.options?.resource_options?.search_index ?? caller.options?.resource_options?.elasticsearch;
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) return new Map(raw.map((name) => [String(name), {}]));
  if (raw && typeof raw === 'object') {
    return new Map(
      Object.entries(raw as Record<string, Record<string, unknown>>).map(([name, options]) => [
        name,
        { limitToWebsite: options?.limit_to_website === true, limitToOwnData: options?.limit_to_own_data === true, allowAnonymous: options?.allow_anonymous === true },
      ]),
    );
  }
  return undefined;
}

/**
 * Which end-points a caller may use: the admitting method must list the
 * end-point, and a client's connection or project must list it too.
 */
export function searchOptionsFor(caller: Caller, endpoint: string): SearchOptions {
  const listed = methodEndpoints(caller);
  if (!listed?.size) throw new HttpError(403, `Search index access is not enabled for ${caller.method} authentication`);
  const options = listed.get(endpoint);
  if (!options) throw new HttpError(403, `Search request to ${endpoint} is not enabled for ${caller.method} authentication`);
  if (caller.client && !caller.client.searchIndex.includes(endpoint)) throw new HttpError(403, `Search request to ${endpoint} is not enabled for this client`);
  return options;
}

/** The search service's answer: the head gives the index's status and type. */
function pipeAnswer(stream: ReturnType<SearchClient['forward']>, res: Response): Promise<void> {
  return streamAnswer(stream, res, 'search', {
    applyHead: (chunk: ForwardChunk__Output) => {
      if (!chunk.head) return false;
      res.status(chunk.head.status).type(chunk.head.contentType || 'application/json');
      return true;
    },
  });
}

/** One route per configured end-point: {services}/rest/<end-point>/<path>. */
export function searchRoutes(config: RestConfig, search: SearchClient): Route[] {
  const routes: Route[] = [];
  for (const [name, endpoint] of Object.entries(config.search_index ?? {})) {
    const handler = async (req: Request, res: Response) => {
      const segments = ([] as string[]).concat((req.params as { path?: string | string[] }).path ?? []);
      const options = endpoint.open ? {} : searchOptionsFor(req.caller!, name);
      const queryAt = req.originalUrl.indexOf('?');
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      await pipeAnswer(
        search.forward({
          auth: req.caller ? toAuthContext(req.caller) : undefined,
          endpoint: name,
          method: req.method.toLowerCase(),
          segments,
          query: queryAt >= 0 ? req.originalUrl.slice(queryAt + 1) : '',
          body,
          options,
        }),
        res,
      );
    };
    for (const method of ['get', 'post'] as const) {
      for (const path of [`/${name}`, `/${name}/*path`]) {
        routes.push({
          resource: name,
          method,
          path,
          summary: `Search-index end-point ${name}: forwarded to index ${endpoint.index} when the path is allowed${endpoint.open ? ' (no authentication)' : ''}; searches get the caller's built-in filter.`,
          parameters: path.endsWith('*path') ? [{ name: 'path', in: 'path', type: 'string', description: 'Path below the index, e.g. _search', required: true }] : [],
          rawBody: true,
          open: endpoint.open,
          search: true,
          responses: { 200: "The index's answer", 400: 'A path the end-point does not allow, or a query the index refuses', 403: 'Search not enabled for the caller', 503: 'The index cannot be reached' },
          handler,
        });
      }
    }
  }
  return routes;
}

export const rawBody = (limit: string) => express.raw({ type: () => true, limit });
