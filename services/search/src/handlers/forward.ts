import { Readable } from 'node:stream';
import { DomainError, badRequest, grpc, invalid, notFound, toServiceError, unavailable } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import type { ForwardChunk, ForwardRequest__Output } from '@rex/protos';
import type { RestConfig } from '@rex/rest-config';
import { compileAllowList, isAllowed, type AllowList } from '../domain/allow-list.ts';
import { FilterError, STRIPPED_PARAMETERS, applyFilter, builtInClauses } from '../domain/filter.ts';

type Endpoint = { url: string; index: string; applyFilters: boolean; allowed: AllowList };

const SEARCH_PATH = /(^|\/)_search(\/|$)/;

/** The end-points of the configuration, with their allow-lists compiled once. */
export function endpointsOf(config: RestConfig): Map<string, Endpoint> {
  return new Map(
    Object.entries(config.search_index ?? {}).map(([name, e]) => [
      name,
      { url: e.url.replace(/\/+$/, ''), index: e.index, applyFilters: e.apply_filters, allowed: compileAllowList(e.allowed) },
    ]),
  );
}

function forwardedQuery(raw: string): string {
  const params = new URLSearchParams(raw);
  for (const name of [...params.keys()]) if (STRIPPED_PARAMETERS.has(name)) params.delete(name);
  return params.toString();
}

function parseBody(body: Buffer): Record<string, unknown> {
  if (!body.length) return {};
  try {
    const parsed = JSON.parse(body.toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // fall through
  }
  throw invalid({ 'search:body': 'The request body must be a JSON object.' });
}

/** The reason an index gives for refusing a request, from its JSON error. */
function indexReason(text: string): string {
  try {
    const error = JSON.parse(text)?.error;
    return String(error?.root_cause?.[0]?.reason ?? error?.reason ?? error ?? text).slice(0, 500);
  } catch {
    return text.slice(0, 500);
  }
}

/**
 * Forward: checks the path against the end-point's allow-list, adds the
 * caller's built-in filter to searches, sends the request to the index and
 * streams its answer back (head first, then the body in chunks).
 */
export function forwardHandler(endpoints: Map<string, Endpoint>, timeoutMs: number, logger: Logger): grpc.handleServerStreamingCall<ForwardRequest__Output, ForwardChunk> {
  return (call) => {
    const run = async () => {
      const request = call.request;
      const endpoint = endpoints.get(request.endpoint);
      if (!endpoint) throw notFound(`Unknown search end-point ${request.endpoint}`);
      const method = request.method.toLowerCase();
      if (!request.path || !isAllowed(endpoint.allowed, method, request.path)) {
        throw badRequest(`Search request ${request.path} (${method.toUpperCase()}) disallowed by the proxy configuration.`);
      }
      let body = parseBody(request.body);
      if (endpoint.applyFilters && SEARCH_PATH.test(request.path)) {
        const auth = request.auth;
        try {
          body = applyFilter(
            body,
            builtInClauses({
              websiteId: auth?.websiteId ?? '0',
              sharingWebsiteIds: auth?.sharingWebsiteIds ?? [],
              userId: auth && auth.userId !== '0' ? auth.userId : undefined,
              scope: auth?.scope ?? 'SCOPE_REPORTING',
              connection: auth?.connection ?? undefined,
              limitToWebsite: request.options?.limitToWebsite ?? false,
              limitToOwnData: request.options?.limitToOwnData ?? false,
              allowAnonymous: request.options?.allowAnonymous ?? false,
            }),
          );
        } catch (error) {
          if (error instanceof FilterError) throw new DomainError(grpc.status.PERMISSION_DENIED, error.message);
          throw error;
        }
      }
      const params = new URLSearchParams(request.query);
      if (params.get('debug') === 'true') {
        call.write({ head: { status: 200, contentType: 'application/json' } });
        call.write({ data: Buffer.from(JSON.stringify(body)) });
        call.end();
        return;
      }
      const query = forwardedQuery(request.query);
      const target = `${endpoint.url}/${endpoint.index}/${request.path}${query ? `?${query}` : ''}`;
      const sendsBody = Object.keys(body).length > 0 || method === 'post' || method === 'put';
      let response: Response;
      try {
        response = await fetch(target, {
          method: sendsBody && method === 'get' ? 'POST' : method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          body: sendsBody ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        logger.warn({ err: error, endpoint: request.endpoint }, 'search index unreachable');
        throw unavailable(`The search index of ${request.endpoint} cannot be reached.`);
      }
      if (!response.ok) {
        const reason = indexReason(await response.text());
        if (response.status >= 500) throw unavailable(`The search index failed: ${reason}`);
        throw badRequest(reason);
      }
      call.write({ head: { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json' } });
      if (response.body) {
        for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)) {
          if (!call.write({ data: chunk as Buffer })) await new Promise((resolve) => call.once('drain', resolve));
        }
      }
      call.end();
    };
    run().catch((error: unknown) => {
      if (!(error instanceof DomainError)) logger.error({ err: error }, 'search forward failed');
      call.emit('error', toServiceError(error));
    });
  };
}
