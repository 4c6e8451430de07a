// Floors (c), (h) and (p), front half: a bare Express handler making one grpc-js unary call per
// request, to the echo server (c), to the server that reads the sample from pg (h), or to the one
// that runs the report page's statement (p).
import * as grpc from '@grpc/grpc-js';
import express from 'express';

const identity = (value: Buffer) => value;
const client = new grpc.Client(`127.0.0.1:${process.env.BACKEND_PORT}`, grpc.credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
const method = process.env.METHOD ?? '/bench.Echo/Echo';
const app = express();
app.get('/:kind/:id', (req, res) => {
  client.makeUnaryRequest(method, identity, identity, Buffer.from(req.params.id), { deadline: Date.now() + 5_000 }, (error, reply) => {
    if (error) res.status(503).json({ code: 503 });
    else if (req.params.kind === 'echo') res.json({ values: { id: reply!.toString() } });
    else res.type('json').send(`{"${req.params.kind === 'report' ? 'data' : 'values'}":${reply!.toString()}}`);
  });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
// Stopped with SIGTERM: exits, so that a CPU profile (REX_CPU_PROFILE_DIR) is written.
process.once('SIGTERM', () => process.exit(0));
