// The suite's processes as the chaos run drives them: two records and two
// reports replicas behind multi-address targets, media, search and the
// gateway, each one killed and started again at will on its own port.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@rex/db';
import { ROOT, SERVICE_V8_FLAGS, grpcServing } from '../suite.ts';

const NODE_FLAGS = ['--conditions=development', '--disable-warning=ExperimentalWarning', ...SERVICE_V8_FLAGS];

export type Member = {
  name: string;
  service: 'records' | 'reports' | 'media' | 'search' | 'gateway';
  port: number;
  env: Record<string, string>;
  child?: ChildProcess;
  starts: number;
};

export type Fleet = {
  members: Member[];
  gatewayUrl: string;
  start: (member: Member) => void;
  /** Resolves when the member answers its health check (or after `timeoutMs`). */
  ready: (member: Member, timeoutMs?: number) => Promise<boolean>;
  stop: (member: Member, signal: NodeJS.Signals) => Promise<void>;
  stopAll: () => Promise<void>;
};

const HEALTH_SERVICE: Record<Member['service'], string> = {
  records: 'records.v1.RecordsService',
  reports: 'reports.v1.ReportsService',
  media: 'media.v1.MediaService',
  search: 'search.v1.SearchService',
  gateway: '',
};

export async function startFleet(options: { databaseUrl: string; dataDir: string; secret: string }): Promise<Fleet> {
  const logs = join(options.dataDir, 'logs');
  mkdirSync(logs, { recursive: true });
  const port = async () => freePort();
  const [recordsA, recordsB, reportsA, reportsB, media, search, gateway] = await Promise.all([port(), port(), port(), port(), port(), port(), port()]);
  const common = {
    DATABASE_URL: options.databaseUrl,
    INTERNAL_AUTH_SECRET: options.secret,
    REX_DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    OTEL_SDK_DISABLED: 'true',
    METRICS_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    PROJECTOR_IDLE_MS: '20',
    MEDIA_CONFIRM_INTERVAL_MS: '500',
    SHUTDOWN_TIMEOUT_MS: '3000',
  };
  const grpcMember = (name: string, service: Member['service'], at: number, env: Record<string, string> = {}): Member => ({
    name,
    service,
    port: at,
    env: { ...common, GRPC_PORT: String(at), ...env },
    starts: 0,
  });
  const mediaAddress = `127.0.0.1:${media}`;
  const members: Member[] = [
    grpcMember('records-a', 'records', recordsA, { MEDIA_ADDR: mediaAddress }),
    grpcMember('records-b', 'records', recordsB, { MEDIA_ADDR: mediaAddress }),
    grpcMember('reports-a', 'reports', reportsA),
    grpcMember('reports-b', 'reports', reportsB),
    grpcMember('media', 'media', media),
    grpcMember('search', 'search', search),
    {
      name: 'gateway',
      service: 'gateway',
      port: gateway,
      env: {
        ...common,
        GATEWAY_PORT: String(gateway),
        RECORDS_ADDR: `ipv4:127.0.0.1:${recordsA},127.0.0.1:${recordsB}`,
        REPORTS_ADDR: `ipv4:127.0.0.1:${reportsA},127.0.0.1:${reportsB}`,
        MEDIA_ADDR: mediaAddress,
        SEARCH_ADDR: `127.0.0.1:${search}`,
        AUTH_CACHE_TTL_MS: '30000',
      },
      starts: 0,
    },
  ];
  const gatewayUrl = `http://127.0.0.1:${gateway}`;

  const start = (member: Member) => {
    const log = createWriteStream(join(logs, `${member.name}.log`), { flags: 'a' });
    const child = spawn(process.execPath, [...NODE_FLAGS, 'src/main.ts'], {
      cwd: join(ROOT, 'services', member.service),
      env: { ...process.env, OTEL_SERVICE_NAME: member.name, ...member.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    member.child = child;
    member.starts += 1;
  };

  const ready = async (member: Member, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const up =
        member.service === 'gateway'
          ? await fetch(`${gatewayUrl}/readyz`).then((answer) => answer.ok, () => false)
          : await grpcServing(`127.0.0.1:${member.port}`, HEALTH_SERVICE[member.service]).catch(() => false);
      if (up) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };

  const stop = (member: Member, signal: NodeJS.Signals) => {
    const child = member.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill(signal);
    });
  };

  for (const member of members) start(member);
  const up = await Promise.all(members.map((member) => ready(member, 60_000)));
  const down = members.filter((_, index) => !up[index]).map((member) => member.name);
  if (down.length) {
    await Promise.all(members.map((member) => stop(member, 'SIGKILL')));
    throw new Error(`not ready within 60 s: ${down.join(', ')} (logs in ${logs})`);
  }
  return {
    members,
    gatewayUrl,
    start,
    ready,
    stop,
    stopAll: async () => {
      await Promise.all(members.map((member) => stop(member, 'SIGTERM')));
    },
  };
}
