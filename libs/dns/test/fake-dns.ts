import dgram from 'node:dgram';

export type FakeDns = { port: number; address: string; asked: string[]; close: () => void };

/**
 * A DNS server on loopback for tests: it answers A queries for the names in `known`, says no
 * address for AAAA, and NXDOMAIN for any other name; or, when `silent`, never answers. `asked`
 * lists every query as "<name> <type>".
 */
export async function fakeDns(known: Record<string, string>, options: { silent?: boolean } = {}): Promise<FakeDns> {
  const socket = dgram.createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (query, from) => {
    let at = 12;
    const labels: string[] = [];
    while (query[at]) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString());
      at += query[at]! + 1;
    }
    const name = labels.join('.').toLowerCase();
    const type = query.readUInt16BE(at + 1);
    asked.push(`${name} ${type === 1 ? 'A' : type === 28 ? 'AAAA' : type}`);
    if (options.silent) return;
    const question = query.subarray(12, at + 5);
    const address = known[name];
    const answers = address && type === 1 ? [Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...address.split('.').map(Number)])] : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(address ? 0x8180 : 0x8183, 2); // a response; NXDOMAIN for a name it does not know
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return { port, address: `127.0.0.1:${port}`, asked, close: () => socket.close() };
}
