// Floor (c), front half: a bare Express handler making one grpc-js unary call per request.
import * as grpc from '@grpc/grpc-js';
import express from 'express';

const identity = (value: Buffer) => value;
const client = new grpc.Client(`127.0.0.1:${process.env.ECHO_PORT}`, grpc.credentials.createInsecure());
const app = express();
app.get('/echo/:id', (req, res) => {
  client.makeUnaryRequest('/bench.Echo/Echo', identity, identity, Buffer.from(req.params.id), { deadline: Date.now() + 5_000 }, (error, reply) => {
    if (error) res.status(503).json({ code: 503 });
    else res.json({ values: { id: reply!.toString() } });
  });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
