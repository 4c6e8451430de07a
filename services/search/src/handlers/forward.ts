import { Readable } from 'node:stream';
import { CallEnded, DomainError, badRequest, grpc, invalid, notFound, unavailable, writeMessage, type ServerStreamHandler } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import type { ForwardChunk, ForwardRequest__Output } from '@rex/protos';
import type { RestConfig } from '@rex/rest-config';
import { allowListVerdict, compileAllowList, type AllowList } from '../domain/allow-list.ts';
import { FilterError, applyFilter, builtInClauses } from '../domain/filter.ts';
import { RefusedRequest, normalisePath, upstreamUrl } from '../domain/path.ts';
import { API_PARAMETERS, filteredPathKind, filteredRequest } from '../domain/search-request.ts';

export type Endpoint = { url: string; index: string; applyFilters: boolean; allowed: AllowList };
type Json = Record<string, unknown>;

/** The end-points of the configuration, with their allow-lists compiled once. */
export function endpointsOf(config: RestConfig): Map<string, Endpoint> {
  return new Map(
    Object.entries(config.search_index ?? {}).map(([name, e]) => [
      name,
      { url: e.url, index: e.index, applyFilters: e.apply_filters, allowed: compileAllowList(e.allowed) },
    ]),
  );
}

function parseBody(body: Buffer): Json {
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

const methodNotAllowed = (message: string) => new DomainError(grpc.status.FAILED_PRECONDITION, message, [], {}, 'METHOD_NOT_ALLOWED');

type Outgoing = { method: string; path: string; parameters: URLSearchParams; body?: Json };

/**
 * Decides what goes to the index: the normalised path if the allow-list
 * takes it with this method; for a filtered end-point only a search or count
 * (the caller's filter added, `q` moved into the body, parameters and body
 * keys from allow-lists) or a field list.
 */
export function outgoingRequest(endpoint: Endpoint, request: ForwardRequest__Output): Outgoing {
  const method = request.method.toLowerCase();
  const path = normalisePath(request.segments);
  const verdict = allowListVerdict(endpoint.allowed, method, path);
  if (verdict === 'method') throw methodNotAllowed(`Search request ${path} (${method.toUpperCase()}) is not allowed with this method.`);
  if (verdict === 'path') throw badRequest(`Search request ${path} (${method.toUpperCase()}) disallowed by the proxy configuration.`);
  const body = parseBody(request.body);

  if (!endpoint.applyFilters) {
    const parameters = new URLSearchParams(request.query);
    for (const name of [...parameters.keys()]) if (API_PARAMETERS.has(name)) parameters.delete(name);
    if (method === 'get' && Object.keys(body).length) {
      if (path !== '_search' && path !== '_count') throw badRequest(`A GET to ${path} takes no body.`);
      return { method: 'POST', path, parameters, body };
    }
    return { method: method.toUpperCase(), path, parameters, body: method === 'get' ? undefined : body };
  }

  const kind = filteredPathKind(path);
  if (!kind) throw badRequest(`Search request ${path} cannot be filtered, so this proxy does not forward it.`);
  if (kind === 'fields') {
    if (method !== 'get') throw methodNotAllowed(`Search request ${path} is read-only.`);
    if (Object.keys(body).length) throw badRequest(`A GET to ${path} takes no body.`);
  }
  const filtered = filteredRequest(kind, request.query, body);
  if (kind === 'fields') return { method: 'GET', path, parameters: filtered.parameters };
  const auth = request.auth;
  let clauses: Json[];
  try {
    clauses = builtInClauses({
      websiteId: auth?.websiteId ?? '0',
      sharingWebsiteIds: auth?.sharingWebsiteIds ?? [],
      userId: auth && auth.userId !== '0' ? auth.userId : undefined,
      scope: auth?.scope ?? 'SCOPE_REPORTING',
      connection: auth?.connection ?? undefined,
      limitToWebsite: request.options?.limitToWebsite ?? false,
      limitToOwnData: request.options?.limitToOwnData ?? false,
      allowAnonymous: request.options?.allowAnonymous ?? false,
    });
  } catch (error) {
    if (error instanceof FilterError) throw new DomainError(grpc.status.PERMISSION_DENIED, error.message);
    throw error;
  }
  // A search always goes as a POST with the filtered body, whatever method it came with.
  return { method: 'POST', path, parameters: filtered.parameters, body: applyFilter(filtered.body, clauses, { count: kind === 'count', alsoMust: filtered.queryStringClause }) };
}

/**
 * Forward: checks the request (see outgoingRequest), sends it to the index
 * and streams the answer back (head first, then the body in chunks). The
 * index request is aborted when the client cancels.
 */
export function forwardHandler(endpoints: Map<string, Endpoint>, timeoutMs: number, logger: Logger): ServerStreamHandler<ForwardRequest__Output, ForwardChunk> {
  return async (request, call) => {
    const cancelled = new AbortController();
    call.once('cancelled', () => cancelled.abort());
    const endpoint = endpoints.get(request.endpoint);
    if (!endpoint) throw notFound(`Unknown search end-point ${request.endpoint}`);
    const outgoing = refusedAsBadRequest(() => outgoingRequest(endpoint, request));
    if (new URLSearchParams(request.query).get('debug') === 'true') {
      await writeMessage(call, { head: { status: 200, contentType: 'application/json' } });
      await writeMessage(call, { data: Buffer.from(JSON.stringify(outgoing.body ?? {})) });
      return;
    }
    const target = refusedAsBadRequest(() => upstreamUrl(endpoint.url, endpoint.index, outgoing.path, outgoing.parameters));
    let response: Response;
    try {
      response = await fetch(target, {
        method: outgoing.method,
        headers: { 'content-type': 'application/json' },
        body: outgoing.body ? JSON.stringify(outgoing.body) : undefined,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), cancelled.signal]),
        redirect: 'error',
      });
    } catch (error) {
      if (cancelled.signal.aborted) throw new CallEnded();
      logger.warn({ err: error, endpoint: request.endpoint }, 'search index unreachable');
      throw unavailable(`The search index of ${request.endpoint} cannot be reached.`);
    }
    if (!response.ok) {
      const reason = indexReason(await response.text());
      if (response.status >= 500) throw unavailable(`The search index failed: ${reason}`);
      throw badRequest(reason);
    }
    const body = response.body ? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>) : undefined;
    try {
      await writeMessage(call, { head: { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json' } });
      if (body) for await (const chunk of body) await writeMessage(call, { data: chunk as Buffer });
    } finally {
      body?.destroy();
    }
  };
}

/** A request the proxy refuses (its path, parameters or body) is the client's 400. */
function refusedAsBadRequest<T>(decide: () => T): T {
  try {
    return decide();
  } catch (error) {
    if (error instanceof RefusedRequest) throw badRequest(error.message);
    throw error;
  }
}
