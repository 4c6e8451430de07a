// Floor (c), backend half: a trivial grpc-js unary echo server in its own process.
import * as grpc from '@grpc/grpc-js';

const identity = (value: Buffer) => value;
const server = new grpc.Server({ 'grpc.enable_channelz': 0 });
server.addService(
  { Echo: { path: '/bench.Echo/Echo', requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity } },
  { Echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => callback(null, call.request) },
);
server.bindAsync(`127.0.0.1:${process.env.PORT}`, grpc.ServerCredentials.createInsecure(), (error) => {
  if (error) throw error;
  process.stdout.write('ready\n');
});
// Stopped with SIGTERM: exits, so that a CPU profile (REX_CPU_PROFILE_DIR) is written.
process.once('SIGTERM', () => process.exit(0));
