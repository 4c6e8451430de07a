import type { NextFunction, Request, Response } from 'express';
import { HttpError } from './http-error.ts';

/** How much one request may submit: records in all (children and list items included), and how deep children nest. */
export type SubmissionLimits = { maxRecords: number; maxDepth: number };

const CHILD_KEYS = ['samples', 'occurrences', 'media', 'associations'];

/**
 * Refuses a submission over the limits before anything reads it further.
 * The walk is iterative, so no depth of nesting can overflow the stack.
 */
export function checkSubmissionSize(body: unknown, limits: SubmissionLimits): void {
  const pending: [unknown, number][] = Array.isArray(body) ? body.map((item) => [item, 1]) : [[body, 1]];
  let records = 0;
  while (pending.length) {
    const [record, depth] = pending.pop()!;
    if (!record || typeof record !== 'object' || Array.isArray(record)) continue;
    records += 1;
    if (records > limits.maxRecords) throw new HttpError(400, `A request may submit at most ${limits.maxRecords} records (SUBMISSION_MAX_RECORDS), children included.`);
    if (depth > limits.maxDepth) throw new HttpError(400, `Child records may nest at most ${limits.maxDepth} levels deep (SUBMISSION_MAX_DEPTH).`);
    for (const key of CHILD_KEYS) {
      const children = Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
      if (Array.isArray(children)) for (const child of children) pending.push([child, depth + 1]);
    }
  }
}

export const submissionLimit = (limits: SubmissionLimits) => (req: Request, _res: Response, next: NextFunction) => {
  try {
    checkSubmissionSize(req.body, limits);
    next();
  } catch (error) {
    next(error);
  }
};
