// sendJson answers as Express's res.json does for the API's answers: the same status, headers
// that matter and bytes, for GET and HEAD, whatever the body holds. A record's values passed on as
// records wrote them are the bytes they were when the gateway read and wrote them again.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromJsonValues, toJsonValues, type FieldValue } from '@rex/protos';
import { sendJson, valuesObjectText } from '../../src/routes/json-answer.ts';

const bodies: unknown[] = [
  { values: { id: '1', comment: null } },
  { values: { comment: 'Rödhake, 鳥, 🐦 "quoted" \\ \n <script>' } },
  { values: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, `value ${'x'.repeat(i)}`])) },
  [],
  'text',
];

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.all('/express/:n', (req, res) => void res.status(req.query.status ? Number(req.query.status) : 200).json(bodies[Number(req.params.n)]));
  app.all('/direct/:n', (req, res) => sendJson(req, res, bodies[Number(req.params.n)], req.query.status ? Number(req.query.status) : 200));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const answer = async (path: string, method: string) => {
  const response = await fetch(`${base}${path}`, { method });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    length: response.headers.get('content-length'),
    bytes: Buffer.from(await response.arrayBuffer()).toString('hex'),
  };
};

describe('sendJson', () => {
  for (const method of ['GET', 'HEAD']) {
    it(`when a ${method} is answered, then status, Content-Type, Content-Length and bytes are those of res.json`, async () => {
      for (const [n] of bodies.entries()) {
        for (const status of ['', '?status=201']) {
          expect(await answer(`/direct/${n}${status}`, method)).toEqual(await answer(`/express/${n}${status}`, method));
        }
      }
    });
  }
});

describe('values passed on', () => {
  const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '0', '17', '4294967295', 'smpAttr:2', 'occAttr:1:12'));
  const value: fc.Arbitrary<FieldValue | undefined> = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constant(null), fc.array(fc.string({ unit: 'binary' }), { maxLength: 4 }), fc.constant(undefined));

  it('when records writes any values, then {"values": …} passed on is the text the gateway wrote from them when it read them', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 40 }), (entries) => {
        const written = toJsonValues(Object.fromEntries(entries));
        expect(valuesObjectText(written)).toBe(JSON.stringify({ values: { ...fromJsonValues(written) } }));
      }),
      { numRuns: 500 },
    );
  });

  it('when a record comes without values, then its values are an empty object, as before', () => {
    for (const none of [undefined, null, { json: '' }]) expect(valuesObjectText(none)).toBe('{"values":{}}');
  });
});
