// Ports picked for services about to start stay theirs while the machine
// goes on binding port 0 and opening connections: the launcher's services
// never meet EADDRINUSE on a port it picked for them.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePort } from '../../src/free-port.ts';

const servers: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => sockets.push(socket));
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve(server);
    });
  });
}

function connect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1', () => resolve(socket));
    sockets.push(socket);
    socket.once('error', reject);
  });
}

describe('freePort', () => {
  it('when ports are picked for five services, then they differ and lie below the range the kernel assigns ports from', async () => {
    const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(ephemeralRangeStart());
    }
  });

  it('when the process binds 300 servers to port 0 and opens 300 connections after picking, then every picked port can still be bound', async () => {
    const picked = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    const target = await listen(0);
    const targetPort = (target.address() as { port: number }).port;
    for (let i = 0; i < 300; i++) await listen(0);
    await Promise.all(Array.from({ length: 300 }, () => connect(targetPort)));
    const taken = servers.map((server) => (server.address() as { port: number }).port);
    const local = sockets.map((socket) => socket.localPort).filter((port): port is number => port !== undefined);
    expect(picked.filter((port) => taken.includes(port) || local.includes(port))).toEqual([]);
    for (const port of picked) await listen(port);
  });
});
