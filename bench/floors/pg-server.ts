// Floor (h), backend half: a grpc-js unary server running the read path's query, the
// sample by id on a pg pool the size the records service uses, answering its row as JSON.
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';

const identity = (value: Buffer) => value;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const server = new grpc.Server({ 'grpc.enable_channelz': 0 });
server.addService(
  { Get: { path: '/bench.Samples/Get', requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity } },
  {
    Get: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      pool.query({ name: 'sample', text: 'SELECT * FROM records.samples WHERE id = $1', values: [call.request.toString()] }).then(
        ({ rows }) => callback(null, Buffer.from(JSON.stringify(rows[0] ?? null))),
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
