// The gateway in this process in front of a ReportsService that writes its rows only as JSON
// arrays of values, as one of an earlier version does (for instance while a deployment is
// upgraded): every format of a report's answer still holds every row, as the API writes it.
import * as grpc from '@grpc/grpc-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from '@rex/config';
import { createPool, freePort, withTransaction } from '@rex/db';
import { reportsV1, toJsonRows, type RunReportChunk, type RunReportRequest__Output } from '@rex/protos';
import { AUTH_FIXTURES, importAuthFixtures } from '../../src/admin/index.ts';
import { GatewayEnv } from '../../src/config.ts';
import { startGateway } from '../../src/server.ts';
import { freshDatabase, serve, settings, silentLogger } from '../../../../component/support/served.ts';

const WEBSITE = { id: 1, url: 'http://rows.example.org', password: 'rows-website-password' };
const COLUMNS = ['occurrence_id', 'taxon', 'comment'];
// Two batches, as reports sends more than 500 rows; a null, an empty text, a formula and a quote.
const BATCHES = [
  [
    ['1', 'Erithacus rubecula', null],
    ['2', 'Turdus merula', ''],
  ],
  [['3', '=HYPERLINK("x")', 'a "quoted", line\nbreak']],
];
const asked: RunReportRequest__Output[] = [];
let rest: string;

beforeAll(async () => {
  const server = new grpc.Server();
  server.addService(reportsV1.ReportsService.service, {
    RunReport: (call: grpc.ServerWritableStream<RunReportRequest__Output, RunReportChunk>) => {
      asked.push(call.request);
      call.write({ head: { count: 3, columns: COLUMNS, unknownParameters: [] } });
      if (call.request.parameters.markup) {
        // A reports service that sends text where it was asked for values.
        call.write({ rows: { text: Buffer.from('<script>alert(1)</script>'), count: 1, json: toJsonRows([['<b>1</b>', 'Erithacus rubecula', null]]) } });
      } else for (const rows of BATCHES) call.write({ rows: { json: toJsonRows(rows) } });
      call.end();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const databaseUrl = await freshDatabase('gateway_rows');
  const nowhere = `127.0.0.1:${await freePort()}`;
  const config = settings(GatewayEnv, {
    DATABASE_URL: databaseUrl,
    GATEWAY_PORT: '0',
    MIGRATE_ON_START: 'true',
    RECORDS_ADDR: nowhere,
    REPORTS_ADDR: `127.0.0.1:${port}`,
    SEARCH_ADDR: nowhere,
    MEDIA_ADDR: nowhere,
    WEBHOOKS_ENABLED: 'false',
  });
  const gateway = await serve('', async () => {
    const started = await startGateway(config, silentLogger('gateway'));
    return {
      port: started.port,
      stop: async () => {
        await started.stop();
        server.forceShutdown();
      },
    };
  }, (served) => fetch(`http://127.0.0.1:${served}/readyz`).then((response) => response.ok, () => false));
  rest = `http://127.0.0.1:${gateway.port}/index.php/services/rest`;
  const pool = createPool(databaseUrl, { max: 1, applicationName: 'component-seed' });
  const auth = z.object(AUTH_FIXTURES).parse({ websites: [{ id: WEBSITE.id, title: 'Rows', url: WEBSITE.url, password: WEBSITE.password }] });
  await withTransaction(pool, (client) => importAuthFixtures(client, auth, () => undefined));
  await pool.end();
});

async function report(format: string, extra = '') {
  const response = await fetch(`${rest}/reports/library/occurrences/filterable_explore_list.xml?format=${format}${extra}`, {
    headers: { Authorization: `WEBSITE_ID:${WEBSITE.id}:SECRET:${WEBSITE.password}` },
  });
  return { status: response.status, text: await response.text() };
}

describe('report rows from a reports service that writes only values', () => {
  it('when a report is asked for as JSON, CSV or NDJSON, then the answer holds every row of every batch in that format', async () => {
    const json = await report('json');
    expect(json.status, json.text).toBe(200);
    expect(JSON.parse(json.text).data).toEqual([
      { occurrence_id: '1', taxon: 'Erithacus rubecula' },
      { occurrence_id: '2', taxon: 'Turdus merula' },
      { occurrence_id: '3', taxon: '=HYPERLINK("x")', comment: 'a "quoted", line\nbreak' },
    ]);
    const csv = await report('csv');
    expect(csv.text).toBe(`occurrence_id,taxon,comment\r\n1,Erithacus rubecula,\r\n2,Turdus merula,\r\n3,"'=HYPERLINK(""x"")","a ""quoted"", line\nbreak"\r\n`);
    const ndjson = await report('ndjson');
    expect(ndjson.text.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { occurrence_id: '1', taxon: 'Erithacus rubecula', comment: null },
      { occurrence_id: '2', taxon: 'Turdus merula', comment: '' },
      { occurrence_id: '3', taxon: '=HYPERLINK("x")', comment: 'a "quoted", line\nbreak' },
    ]);
    const html = await report('html');
    expect(html.text).toContain('<td>Turdus merula</td>');
    // What each format asked reports for: the answer's text, except for HTML.
    expect(asked.map((request) => request.rowForm)).toEqual(['ROW_FORM_JSON_OBJECTS', 'ROW_FORM_CSV', 'ROW_FORM_NDJSON', 'ROW_FORM_JSON_ARRAYS']);
  });

  it('when an HTML page is asked for, then only the values are written, escaped, even if text comes with them', async () => {
    const html = await report('html', '&markup=1');
    expect(html.status).toBe(200);
    expect(html.text).toContain('<td>&lt;b&gt;1&lt;/b&gt;</td>');
    expect(html.text).not.toContain('<script>');
  });
});
