// Whether a started service serves yet. The launcher asks every 25 ms while
// five processes start on the same cores, so asking must cost next to
// nothing: until the service listens only a TCP connection is tried (a gRPC
// call costs many times more), then one gRPC channel or kept-alive HTTP
// connection serves every further question.
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import * as grpc from '@grpc/grpc-js';

export type Probe = { check: () => Promise<boolean>; close: () => void };

/** grpc.health.v1 check of one service over `client`, by raw call (no generated client needed). */
function healthCheck(client: grpc.Client, service: string): Promise<boolean> {
  const request = Buffer.concat([Buffer.from([0x0a, Buffer.byteLength(service)]), Buffer.from(service)]);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (value: Buffer) => value,
      (value: Buffer) => value,
      request,
      { deadline: Date.now() + 1_000 },
      (error, response) => {
        // HealthCheckResponse { status = 1 (SERVING) } encodes as 08 01.
        resolve(!error && !!response && response.length >= 2 && response[0] === 0x08 && response[1] === 0x01);
      },
    );
  });
}

/** One grpc.health.v1 check on a channel of its own. */
export async function grpcServing(address: string, service: string): Promise<boolean> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  try {
    return await healthCheck(client, service);
  } finally {
    client.close();
  }
}

/** Whether something accepts connections on `host:port`. */
function listening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** SERVING from grpc.health.v1 of `service` at `address` (host:port). */
export function grpcProbe(address: string, service: string): Probe {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  let client: grpc.Client | undefined;
  const check = async () => {
    if (!client) {
      if (!(await listening(host, port))) return false;
      client = new grpc.Client(address, grpc.credentials.createInsecure());
    }
    return healthCheck(client, service);
  };
  return { check, close: () => client?.close() };
}

/** 200 from `url` (the gateway's /readyz). */
export function httpProbe(url: string): Probe {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let listens = false;
  const answers = () =>
    new Promise<boolean>((resolve) => {
      const request = get(url, { agent, timeout: 1_000 }, (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      });
      request.once('timeout', () => request.destroy());
      request.once('error', () => resolve(false));
    });
  const check = async () => (listens ||= await listening(hostname, Number(port))) && answers();
  return { check, close: () => agent.destroy() };
}
