import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import { OnceListeners, forWaiter, type Waiter } from '@rex/grpc';
import type { Logger } from '@rex/logger';
import { httpDuration, httpInFlight, inSpan, use, type Span } from '@rex/telemetry';
import { endRequestSpan, requestSpan } from './request-span.ts';
import { checkClientAccess } from './auth/access.ts';
import { authenticate, type Authenticator } from './auth/authenticate.ts';
import type { Caller } from './auth/caller.ts';
import { createCors } from './auth/cors.ts';
import { HttpError, errorBody } from './http-error.ts';
import { RateLimiter, type RateLimitStore } from './rate-limit.ts';
import { submissionLimit, type SubmissionLimits } from './submission-limits.ts';
import { MEDIA_ALIAS } from './routes/media.ts';
import { ATTRIBUTES_ALIAS } from './routes/surveys.ts';
import type { MethodName, RestConfig } from '@rex/rest-config';
import { PUBLIC_BASE, SERVICES_PATH, servicesUrl } from './routes/context.ts';
import type { Route } from './routes/route.ts';
import { allowList, answerOtherMethods, methodsByPath, otherMethodsPath } from './routes/path-methods.ts';
import { rawBody } from './routes/search.ts';
import { serviceRootRouter } from './routes/service-root.ts';

use(httpDuration);
use(httpInFlight);

export type AppOptions = {
  config: RestConfig;
  authenticators: Partial<Record<MethodName, Authenticator>>;
  /** Adds what the services need beyond identity (the websites sharing with the caller's). */
  completeCaller?: (caller: Caller) => Promise<Caller>;
  routes: Route[];
  /** Where rate-limit counters live (in process unless Redis is configured). */
  rateLimitStore?: RateLimitStore;
  logger: Logger;
  bodyLimit: string;
  trustProxy: string;
  /** Scheme, host (and path prefix) of every link written, instead of the request's Host. */
  publicBaseUrl?: string;
  isReady: () => boolean;
  /** Longest wait for a request's body, except on upload routes (408 after it). */
  bodyTimeoutMs: number;
  /** Files served without credentials outside the service root (`/upload/...`), when public files are on. */
  publicFiles?: (limits: express.RequestHandler[]) => express.Router;
  submissionLimits: SubmissionLimits;
};

/** The route a request matched (below the services path), if any. */
function routeOf(req: Request, res: Response): string | undefined {
  const path: unknown = req.route?.path;
  // The route answering methods a path does not serve (405, OPTIONS) has every path: the request's is the one it matched.
  const matched = Array.isArray(path) ? otherMethodsPath(res) : path;
  if (!matched) return undefined;
  const below = req.baseUrl.startsWith(SERVICES_PATH) ? SERVICES_PATH : '';
  return `${below}${String(matched)}`;
}

/** The span of each request that is traced, for its route's handler to run under (see `handle`). */
const requestSpans = new WeakMap<Request, Span>();

/** Times every request and counts it in flight; traces it, when sampled, with what it leads to run under its span. */
function observeRequest(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  httpInFlight.inc();
  const span = requestSpan(req);
  if (span) requestSpans.set(req, span);
  // 'close' comes once for every response: after it was sent whole, or when the client went first (not timed).
  res.once('close', () => {
    httpInFlight.dec();
    const route = routeOf(req, res);
    endRequestSpan(span, req, res, route);
    if (!res.writableFinished) return;
    httpDuration.observe({ method: req.method, route: route ?? 'unmatched', status_code: res.statusCode }, Number(process.hrtime.bigint() - started) / 1e9);
  });
  inSpan(span, next);
}

function requireJson(req: Request, _res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    next(new HttpError(415, 'The request body must be JSON (Content-Type: application/json).'));
    return;
  }
  next();
}

/** Body-parser failures as the API's JSON errors. */
function bodyParserError(error: { type?: string; status?: number }): HttpError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new HttpError(413, 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'The request body encoding is not supported.');
    case 'request.aborted':
      return new HttpError(400, 'The request was aborted.');
    default:
      return error.status && error.status >= 400 && error.status < 500 ? new HttpError(error.status) : undefined;
  }
}

/**
 * A body that has not arrived within `ms` is answered 408 and the connection
 * closed; upload routes are exempt (their limit is the server's request timeout).
 */
function bodyDeadline(ms: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    const hasBody = req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
    if (!hasBody || req.complete) return next();
    const timer = setTimeout(() => {
      if (req.complete || res.headersSent) return;
      res.status(408).set('Connection', 'close').json(errorBody(408, 'The request body did not arrive in time.'));
      res.once('finish', () => req.destroy());
    }, ms);
    timer.unref();
    const clear = () => clearTimeout(timer);
    req.once('end', clear);
    req.once('close', clear);
    next();
  };
}

/** No path or query parameter of the API may hold a NUL character (PostgreSQL text cannot): 400. */
function refuseNul(req: Request, _res: Response, next: NextFunction): void {
  if (/%00/i.test(req.originalUrl)) next(new HttpError(400, 'The request URL may not contain NUL characters (%00).'));
  else next();
}

/**
 * `{services}/rest/v<major>.<minor>/…`: only v1.0 is served (400 for another);
 * a first segment of another form is a path of the API. Read from the URL once
 * rather than as a route parameter, which every request would pay for.
 */
function refuseOtherVersions(req: Request, _res: Response, next: NextFunction): void {
  const segment = req.url.slice(1).split(/[/?]/, 1)[0];
  if (!segment.startsWith('v') && !segment.startsWith('%')) return next();
  let version: string;
  try {
    version = decodeURIComponent(segment);
  } catch {
    return next();
  }
  if (/^v\d+\.\d+$/.test(version) && version !== 'v1.0') return next(new HttpError(400, 'Unsupported API version'));
  next();
}

/** What a client must know when a write timed out. */
const UNKNOWN_OUTCOME =
  'The outcome of this request is unknown: it was cancelled when its time ran out, but may have completed just before. Retrying it with the same Idempotency-Key is safe: it answers with the saved record if there is one and saves it otherwise.';

type Handler = (req: Request, res: Response) => Promise<void>;

/** The HTTP client a route's backend calls are made for: told, once, when it goes away before its answer is complete. */
class HttpClient implements Waiter {
  gone = false;
  private readonly listeners = new OnceListeners();

  constructor(res: Response) {
    res.once('close', () => {
      if (res.writableFinished) return;
      this.gone = true;
      this.listeners.tell();
    });
  }

  onGone(listener: () => void): () => void {
    return this.listeners.add(listener);
  }
}

/**
 * Runs a route's handler for its HTTP client: the backend calls it makes are
 * cancelled if the client goes away before the answer is complete. A traced
 * request's handler runs under its span again: a body is read in events of the
 * request's socket, which do not carry the span the request began under.
 */
const handle = (fn: Handler) => (req: Request, res: Response, next: NextFunction) => {
  // The error handler too runs under the span: what it logs names the trace.
  void inSpan(requestSpans.get(req), () => forWaiter(new HttpClient(res), () => fn(req, res)).catch(next));
};

/**
 * Answers an error as the API's JSON error: the app's last handler, and the last of each API
 * route's own (see apiRouter).
 */
function errorAnswer(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const httpError = error instanceof HttpError ? error : bodyParserError(error);
    const status = httpError?.status ?? 500;
    // The whole path, whichever mount of the API the route answers in (never the query: it may hold a secret).
    const path = `${req.baseUrl}${req.path}`;
    if (!httpError) logger.error({ err: error, method: req.method, path }, 'unhandled error');
    // A backend that is down or too slow (503, 504) is the operator's to see; a refused request is the
    // client's, and so is a call cancelled because the client went away.
    else if (status >= 500 && !res.destroyed) logger.warn({ method: req.method, path, status, detail: httpError.detail, cause: httpError.cause }, 'request failed');
    else logger.debug({ method: req.method, path, status }, res.destroyed ? 'the client went away' : 'request refused');
    if (res.headersSent) {
      res.end();
      return;
    }
    const extra = { ...httpError?.extra };
    // A conflicting record is named by its path below the service root; the client gets its full href.
    const duplicate = extra.duplicate_of as { id: string; path?: string } | undefined;
    if (duplicate?.path) extra.duplicate_of = { id: duplicate.id, href: `${servicesUrl(req)}/rest/${duplicate.path}` };
    let detail = httpError ? httpError.detail : 'Internal error';
    if (status === 504 && req.method !== 'GET' && typeof detail === 'string') detail = `${detail} ${UNKNOWN_OUTCOME}`;
    res.status(status).json(errorBody(status, detail, extra));
  };
}

/**
 * The API's routes, with authentication, client access, CORS and rate limits in front of each.
 * Each ends with `answerError`: a request that fails is answered by its own route, rather than
 * walking the rest of the API's routes (mounted three times) and leaving each router on a later
 * turn of the event loop, twice the routing of a request that succeeds.
 */
function apiRouter(options: AppOptions, answerError: ErrorRequestHandler): express.Router {
  const router = express.Router();
  const cors = createCors(options.config);
  const authenticateFor = authenticate(options.config, options.authenticators, options.completeCaller);
  const bodyWithin = bodyDeadline(options.bodyTimeoutMs);
  const jsonBody = [requireJson, express.json({ limit: options.bodyLimit, strict: false }), submissionLimit(options.submissionLimits)];
  const jsonObject = [requireJson, express.json({ limit: options.bodyLimit, strict: true })];
  const limits = options.config.rate_limit;
  const store = options.rateLimitStore;
  const perAddress = limits?.per_address ? new RateLimiter('address', limits.per_address, store).middleware((req) => req.ip) : undefined;
  const perCredential = limits?.per_credential
    ? new RateLimiter('credential', limits.per_credential, store).middleware((req) => req.caller?.credential)
    : undefined;

  const byPath = methodsByPath(options.routes);
  for (const route of options.routes) {
    const allow = allowList(byPath.get(route.path)!);
    const admitted = (req: Request, res: Response, next: NextFunction) => {
      try {
        if (req.caller) checkClientAccess(req.caller, route.resource, req.method, route.search);
        cors.forCaller(req, res, allow);
        next();
      } catch (error) {
        next(error);
      }
    };
    router[route.method](
      route.path,
      ...(perAddress ? [perAddress] : []),
      ...(route.open ? [] : [authenticateFor(route.resource, route.search), admitted]),
      ...(perCredential && !route.open ? [perCredential] : []),
      ...(route.upload ? [] : [bodyWithin]),
      ...(route.submission ? jsonBody : []),
      ...(route.json ? jsonObject : []),
      ...(route.rawBody ? [rawBody(options.bodyLimit)] : []),
      handle(route.handler),
      answerError,
    );
  }

  answerOtherMethods(router, byPath, cors, answerError);
  return router;
}

export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy.trim() === '' ? false : options.trustProxy);
  if (options.publicBaseUrl) app.set(PUBLIC_BASE, options.publicBaseUrl.replace(/\/+$/, ''));
  app.set('etag', false);
  // Every answer is what its Content-Type says: no browser may read a CSV, NDJSON or JSON answer
  // holding a client's text as a page or a script.
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res) => {
    const ready = options.isReady();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });

  app.use(observeRequest);
  app.use(refuseNul);
  if (options.publicFiles) {
    const perAddress = options.config.rate_limit?.per_address;
    app.use(options.publicFiles(perAddress ? [new RateLimiter('files-address', perAddress, options.rateLimitStore).middleware((req) => req.ip)] : []));
  }
  app.use(SERVICES_PATH, (req, _res, next) => {
    req.url = req.url.replace(MEDIA_ALIAS, '/$1_media').replace(ATTRIBUTES_ALIAS, '/$1-attributes');
    next();
  });
  const answerError = errorAnswer(options.logger);
  const api = apiRouter(options, answerError);
  app.use(SERVICES_PATH, serviceRootRouter(options.config, options.routes, createCors(options.config), answerError));
  app.use(`${SERVICES_PATH}/rest`, refuseOtherVersions);
  app.use(`${SERVICES_PATH}/rest/v1.0`, api);
  app.use(`${SERVICES_PATH}/rest`, api);
  app.use(SERVICES_PATH, api);

  app.use((req, _res, next) => {
    next(new HttpError(404, `Resource path ${req.path} not found`));
  });

  app.use(answerError);
  return app;
}
