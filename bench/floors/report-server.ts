// Floor (p), backend half: a grpc-js unary server running the report page's statement, compiled
// once at start as the reports service compiles it for the benchmark's caller, on a pool with the
// reports service's reading settings, answering its rows as JSON.
import * as grpc from '@grpc/grpc-js';
import { createReportsPools } from '../../services/reports/src/db/pools.ts';
import { ReportsEnv } from '../../services/reports/src/config.ts';
import { visibilityFor } from '../../services/reports/src/domain/visibility.ts';
import { loadCatalogue } from '../../services/reports/src/library/catalogue.ts';
import { compileReport } from '../../services/reports/src/library/compile.ts';

const identity = (value: Buffer) => value;
const { REPORT, PARAMETERS, LIMIT, WEBSITE_ID, USER_ID } = process.env as Record<string, string>;
const catalogue = loadCatalogue([new URL('../../services/reports/definitions', import.meta.url).pathname]);
const definition = catalogue.reports.get(REPORT);
if (!definition) throw new Error(`no report ${REPORT}`);
// The caller of the benchmark's page: a user of the website, within it (jwtUser's scope for reports).
const auth = { entity: 'ENTITY_USER', userId: USER_ID, websiteId: WEBSITE_ID, scope: 'SCOPE_USER_WITHIN_WEBSITE', sharingWebsiteIds: [], connection: null } as unknown as Parameters<typeof visibilityFor>[1];
const page = compileReport(definition, JSON.parse(PARAMETERS), visibilityFor(definition.table, auth, false), { limit: Number(LIMIT), offset: 0 });
const { read } = createReportsPools(ReportsEnv.parse(process.env));
const server = new grpc.Server({ 'grpc.enable_channelz': 0 });
server.addService(
  { Page: { path: '/bench.Reports/Page', requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity } },
  {
    Page: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      read.query({ name: 'page', text: page.sql, values: page.values }).then(
        ({ rows }) => callback(null, Buffer.from(JSON.stringify(rows))),
        (error: Error) => callback({ code: grpc.status.UNAVAILABLE, details: error.message }),
      );
    },
  },
);
server.bindAsync(`127.0.0.1:${process.env.PORT}`, grpc.ServerCredentials.createInsecure(), (error) => {
  if (error) throw error;
  process.stdout.write('ready\n');
});
// Stopped with SIGTERM: exits, so that a CPU profile (REX_CPU_PROFILE_DIR) is written.
process.once('SIGTERM', () => process.exit(0));
