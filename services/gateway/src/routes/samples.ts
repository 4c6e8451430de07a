import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { toAuthContext } from '../auth/caller.ts';
import type { RecordsClient } from '../clients/records.ts';
import { envelope, fromFieldValues, toSubmission } from '../envelope.ts';
import { HttpError } from '../http-error.ts';
import type { RouteContext } from './context.ts';

const ID = /^[1-9]\d{0,17}$/;

function sampleId(req: Request): string {
  const id = String(req.params.id);
  if (!ID.test(id)) throw new HttpError(404);
  return id;
}

function requireUserForPost(req: Request): void {
  const caller = req.caller!;
  if (!caller.userId && !caller.mayPostAnonymously) {
    throw new HttpError(400, { 'sample:created_by_id': 'Cannot POST without user authentication.' });
  }
}

type Handler = (req: Request, res: Response) => Promise<void>;
const handle = (fn: Handler) => (req: Request, res: Response, next: NextFunction) => fn(req, res).catch(next);

/** /samples and /samples/:id, forwarded to the records service. */
export function samplesRouter(records: RecordsClient, context: RouteContext): Router {
  const router = express.Router();
  const auth = context.authenticate('samples');

  router.post(
    '/samples',
    auth,
    context.jsonBody,
    handle(async (req, res) => {
      requireUserForPost(req);
      const { saved } = await context.backend('records', records.createSample(toAuthContext(req.caller!), toSubmission('sample', req.body)));
      const body = envelope(saved!, context.servicesUrl(req));
      res.status(201).location(body.href as string).json(body);
    }),
  );

  router.get(
    '/samples/:id',
    auth,
    handle(async (req, res) => {
      const { values } = await context.backend('records', records.getSample(toAuthContext(req.caller!), sampleId(req)));
      res.json({ values: fromFieldValues(values) });
    }),
  );

  router.put(
    '/samples/:id',
    auth,
    context.jsonBody,
    handle(async (req, res) => {
      const id = sampleId(req);
      const { saved } = await context.backend('records', records.updateSample(toAuthContext(req.caller!), id, toSubmission('sample', req.body)));
      res.json(envelope(saved!, context.servicesUrl(req)));
    }),
  );

  router.delete(
    '/samples/:id',
    auth,
    handle(async (req, res) => {
      await context.backend('records', records.deleteSample(toAuthContext(req.caller!), sampleId(req)));
      res.status(204).end();
    }),
  );

  router.options(['/samples', '/samples/:id'], (_req, res) => {
    res
      .set({
        Allow: 'GET, POST, PUT, DELETE, OPTIONS',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, POST, DELETE, PUT, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, Authorization',
      })
      .status(200)
      .end();
  });

  return router;
}
