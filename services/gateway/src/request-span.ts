import type { Request, Response } from 'express';
import { endSpan, serverSpan, type Span } from '@rex/telemetry';

/** Query parameters whose values never reach a span: credentials given in URLs, and signed URLs' signatures. */
const REDACTED_PARAMETERS = new Set(['secret', 'auth_token', 'token', 'password', 'user', 'user_id', 'signature', 'awsaccesskeyid', 'x-goog-signature', 'x-amz-signature', 'sig']);

/** The query string as a span shows it: the values of credentials and signatures replaced. */
export function redactedQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      let name = pair.slice(0, equals);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A name that does not decode is compared as it was sent.
      }
      return REDACTED_PARAMETERS.has(name.trim().toLowerCase()) ? `${pair.slice(0, equals)}=REDACTED` : pair;
    })
    .join('&');
}

/** A header as the trace context reads it: one value, or none when it is missing or repeated. */
function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The server span of an HTTP request, when the sampler takes it (see @rex/telemetry's spans). */
export function requestSpan(req: Request): Span | undefined {
  return serverSpan((name) => header(req, name), () => {
    const queryAt = req.originalUrl.indexOf('?');
    const attributes = {
      'http.request.method': req.method,
      'url.scheme': req.protocol,
      'url.path': queryAt < 0 ? req.originalUrl : req.originalUrl.slice(0, queryAt),
      ...(queryAt < 0 ? {} : { 'url.query': redactedQuery(req.originalUrl.slice(queryAt + 1)) }),
      ...(req.ip ? { 'client.address': req.ip } : {}),
      ...(req.headers['user-agent'] ? { 'user_agent.original': req.headers['user-agent'] } : {}),
    };
    return { name: req.method, attributes };
  }, true);
}

/** Ends a request's span once its response is sent, or abandoned by the client; named by its route when it matched one. */
export function endRequestSpan(span: Span | undefined, req: Request, res: Response, route: string | undefined): void {
  if (!span) return;
  endSpan(span, {
    name: route ? `${req.method} ${route}` : req.method,
    attributes: { 'http.response.status_code': res.statusCode, ...(route ? { 'http.route': route } : {}), ...(res.writableFinished ? {} : { 'rex.client_went_away': true }) },
    error: res.statusCode >= 500 ? String(res.statusCode) : undefined,
  });
}
