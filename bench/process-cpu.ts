// The CPU time of this machine's processes, read from /proc (Linux; elsewhere nothing is read): what
// a load cost each of the suite's services, each floor's process and PostgreSQL's server processes.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** Clock ticks a second in /proc's figures (USER_HZ on Linux). */
const TICKS = 100;

/** CPU seconds (user + system) of a process so far; undefined once it is gone. */
export function processCpu(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

/** What a process is in the figures: a service by its folder, a floor by its script, PostgreSQL; undefined for any other. */
function roleOf(pid: number): string | undefined {
  try {
    if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') return 'postgres';
    const floor = /floors\/([\w-]+)\.ts$/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').find((arg) => arg.includes('floors/')) ?? '');
    if (floor) return floor[1];
    return /\/services\/(\w+)$/.exec(readlinkSync(`/proc/${pid}/cwd`))?.[1];
  } catch {
    return undefined;
  }
}

export type CpuReading = Map<number, { role: string; seconds: number }>;

/** The CPU seconds so far of every process with a role, by pid. */
export function readCpu(): CpuReading {
  const reading: CpuReading = new Map();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return reading;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const role = pid === process.pid ? undefined : roleOf(pid);
    if (!role) continue;
    const seconds = processCpu(pid);
    if (seconds !== undefined) reading.set(pid, { role, seconds });
  }
  return reading;
}

/**
 * Milliseconds of CPU per request, by role, between two readings (a process started meanwhile
 * counts from its start; one gone meanwhile is not counted); roles under 5 µs a request are left out.
 */
export function cpuPerRequest(before: CpuReading, after: CpuReading, requests: number): Record<string, number> {
  const byRole: Record<string, number> = {};
  for (const [pid, { role, seconds }] of after) byRole[role] = (byRole[role] ?? 0) + seconds - (before.get(pid)?.seconds ?? 0);
  return Object.fromEntries(
    Object.entries(byRole)
      .map(([role, seconds]): [string, number] => [role, (seconds * 1000) / Math.max(requests, 1)])
      .filter(([, ms]) => ms >= 0.005)
      .sort(([, x], [, y]) => y - x),
  );
}

/** `gateway 0.290 + records 0.130 + postgres 0.010 = 0.430 ms` */
export function describeCpu(cpu: Record<string, number>): string {
  const parts = Object.entries(cpu).map(([role, ms]) => `${role} ${ms.toFixed(3)}`);
  const total = Object.values(cpu).reduce((sum, ms) => sum + ms, 0);
  return parts.length ? `${parts.join(' + ')} = ${total.toFixed(3)} ms` : 'not read';
}
