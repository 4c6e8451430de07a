import type { ErrorRequestHandler, NextFunction, Request, Response, Router } from 'express';
import type { Cors } from '../auth/cors.ts';
import { HttpError } from '../http-error.ts';

/** The order methods are listed in `Allow`. */
const ORDER = ['GET', 'POST', 'PUT', 'DELETE'];

/** The methods of each path of a route table (`/samples/:id` → GET, PUT, DELETE). */
export function methodsByPath(routes: { path: string; method: string }[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method.toUpperCase()]);
  return byPath;
}

/** `Allow` for a set of methods: in the usual order, then OPTIONS. HEAD is answered wherever GET is. */
export function allowList(methods: Iterable<string>): string[] {
  const set = new Set(methods);
  return [...ORDER.filter((method) => set.has(method)), 'OPTIONS'];
}

const SEEN = 'methodsOfPath';
const FIRST_PATH = 'firstPathOfMethods';

/**
 * Mounts, after a router's routes, the answers to the methods they do not
 * serve: OPTIONS lists the methods of the path (200, no body), any other
 * method is 405 with the same `Allow`. A URL that several paths match (e.g.
 * `/samples/list` and `/samples/:id`) gets the methods of all of them. Paths
 * the router does not know fall through (404). Both answers come before
 * authentication: the route table is public. A 405 is answered by `answerError` in its route.
 */
export function answerOtherMethods(router: Router, byPath: Map<string, string[]>, cors: Cors, answerError: ErrorRequestHandler): void {
  for (const [path, methods] of byPath) {
    router.all(path, (_req: Request, res: Response, next: NextFunction) => {
      res.locals[SEEN] = [...((res.locals[SEEN] as string[] | undefined) ?? []), ...methods];
      res.locals[FIRST_PATH] ??= path;
      next();
    });
  }
  // Only the router's own paths: a request for another passes through without a handler that
  // calls next() last, which would leave the router on the next turn of the event loop.
  router.all([...byPath.keys()], (req: Request, res: Response, next: NextFunction) => {
    const allow = allowList(res.locals[SEEN] as string[]);
    res.set('Allow', allow.join(', '));
    cors.beforeAuthentication(req, res, allow);
    if (req.method === 'OPTIONS') {
      res.status(200).end();
      return;
    }
    next(new HttpError(405, `${req.method} is not allowed for ${req.baseUrl}${req.path}; it allows ${allow.join(', ')}.`));
  }, answerError);
}

/**
 * The path a request answered by answerOtherMethods is timed and traced under: the first of the
 * router's paths it matched (the answering route itself has every path).
 */
export const otherMethodsPath = (res: Response): string | undefined => res.locals[FIRST_PATH] as string | undefined;
