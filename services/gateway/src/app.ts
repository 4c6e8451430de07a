import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@rex/logger';
import { httpDuration, use } from '@rex/telemetry';
import { authenticate, type Authenticator } from './auth/authenticate.ts';
import type { RecordsClient } from './clients/records.ts';
import { HttpError, errorBody } from './http-error.ts';
import type { MethodName, RestConfig } from './rest-config.ts';
import { SERVICES_PATH, backend, servicesUrl, type RouteContext } from './routes/context.ts';
import { samplesRouter } from './routes/samples.ts';
import { serviceRootRouter } from './routes/service-root.ts';

use(httpDuration);

export type AppOptions = {
  config: RestConfig;
  authenticators: Partial<Record<MethodName, Authenticator>>;
  records: RecordsClient;
  logger: Logger;
  bodyLimit: string;
  trustProxy: string;
  isReady: () => boolean;
};

function recordDuration(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const route = req.route?.path ? `${SERVICES_PATH}${String(req.route.path)}` : 'unmatched';
    httpDuration.observe({ method: req.method, route, status_code: res.statusCode }, Number(process.hrtime.bigint() - started) / 1e9);
  });
  next();
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

export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  app.set('etag', false);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res) => {
    const ready = options.isReady();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });

  app.use(recordDuration);

  const context: RouteContext = {
    authenticate: authenticate(options.config, options.authenticators),
    jsonBody: [requireJson, express.json({ limit: options.bodyLimit, strict: false })],
    servicesUrl,
    backend,
  };
  const api = express.Router();
  api.use(samplesRouter(options.records, context));

  app.use(SERVICES_PATH, serviceRootRouter(options.config));
  app.use(`${SERVICES_PATH}/rest/:version`, (req, _res, next) => {
    const version = String(req.params.version);
    if (!/^v\d+\.\d+$/.test(version)) return next();
    if (version !== 'v1.0') return next(new HttpError(400, 'Unsupported API version'));
    next();
  });
  app.use(`${SERVICES_PATH}/rest/v1.0`, api);
  app.use(`${SERVICES_PATH}/rest`, api);
  app.use(SERVICES_PATH, api);

  app.use((req, _res, next) => {
    next(new HttpError(404, `Resource path ${req.path} not found`));
  });

  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const httpError = error instanceof HttpError ? error : bodyParserError(error);
    const status = httpError?.status ?? 500;
    if (!httpError) options.logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    else options.logger.debug({ method: req.method, path: req.path, status }, 'request refused');
    const message = httpError ? httpError.detail : 'Internal error';
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(status).json(errorBody(status, message, httpError?.extra));
  };
  app.use(onError);
  return app;
}
