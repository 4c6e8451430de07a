import type { Request, Response } from 'express';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export type Parameter = {
  name: string;
  in: 'path' | 'query';
  type: 'integer' | 'string';
  description: string;
  required?: boolean;
};

/**
 * One operation of the API. The gateway mounts these, and the self-describing
 * page and the OpenAPI document are generated from the same list.
 */
export type Route = {
  resource: string;
  method: HttpMethod;
  /** Express path below the service root, e.g. `/samples/:id`. */
  path: string;
  summary: string;
  parameters?: Parameter[];
  /** The request body is a record submission (`values` plus children). */
  submission?: boolean;
  /** The request body is a JSON object of the route's own (not a record submission). */
  json?: boolean;
  /** The request body is passed on as it came (search end-points). */
  rawBody?: boolean;
  /** A file upload: its body may take up to the upload deadline to arrive, not the request timeout. */
  upload?: boolean;
  /** No authentication (open search end-points). */
  open?: boolean;
  /** A search-index end-point: its own access rules apply to clients. */
  search?: boolean;
  /** Still served, but left off the service root's page unless asked for (`?deprecated`) and marked so in OpenAPI. */
  deprecated?: boolean;
  responses: Record<number, string>;
  handler: (req: Request, res: Response) => Promise<void>;
};

/** `/samples/:id` → `/samples/{id}`; `/es/*path` → `/es/{path}`. */
export const openApiPath = (path: string): string => path.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
