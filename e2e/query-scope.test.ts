import pg from 'pg';
import { describe, expect, inject, it, vi } from 'vitest';
import { createPool, withTransaction, type QueryScope } from '@rex/db';

/** A call's scope as a gRPC server gives it, ended by the test. */
function callScope(deadline?: number): { scope: QueryScope; end: () => void } {
  const listeners = new Set<() => void>();
  let ended = false;
  return {
    scope: {
      deadline,
      get ended() {
        return ended;
      },
      onEnd: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    end: () => {
      ended = true;
      for (const listener of listeners) listener();
    },
  };
}

/** A pool whose queries serve `scope`, as a service's pool serves the gRPC call in hand. */
function scopedPool(scope: { current?: QueryScope }) {
  return createPool(inject('databaseUrl'), { max: 2, applicationName: 'rex-scope-test', scope: () => scope.current });
}

describe('queries serve their call', () => {
  it('when the call is cancelled while its statement runs, then the database cancels the statement at once', async () => {
    const call = callScope();
    const scope: { current?: QueryScope } = { current: call.scope };
    const pool = scopedPool(scope);
    const deprecatedReads = vi.spyOn(pg.Client.prototype as unknown as { activeQuery: unknown }, 'activeQuery', 'get');
    try {
      setTimeout(call.end, 200);
      const started = Date.now();
      await expect(pool.query('SELECT pg_sleep(10)')).rejects.toMatchObject({ code: '57014' });
      expect(Date.now() - started).toBeLessThan(3_000);
      scope.current = undefined;
      expect((await pool.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
      // node-postgres's deprecated getter (it prints a DeprecationWarning into the service's log) is not read.
      expect(deprecatedReads).not.toHaveBeenCalled();
    } finally {
      deprecatedReads.mockRestore();
      await pool.end();
    }
  });

  it('when a write is cancelled before it commits, then nothing of it is saved', async () => {
    const call = callScope();
    const pool = scopedPool({ current: call.scope });
    const table = `scope_test_${Date.now()}`;
    try {
      await pool.query(`CREATE TABLE public.${table} (n int)`);
      setTimeout(call.end, 200);
      await expect(pool.query(`INSERT INTO public.${table} SELECT CASE WHEN pg_sleep(0.1 + n * 0)::text = '' THEN n ELSE n END FROM generate_series(1, 10) n`)).rejects.toMatchObject({ code: '57014' });
    } finally {
      await pool.end();
    }
    const check = createPool(inject('databaseUrl'), { max: 1 });
    try {
      expect((await check.query(`SELECT count(*)::int AS n FROM public.${table}`)).rows).toEqual([{ n: 0 }]);
      await check.query(`DROP TABLE public.${table}`);
    } finally {
      await check.end();
    }
  });

  it('when a transaction runs for a call with a deadline, then its statements get the remaining time as their timeout', async () => {
    const pool = scopedPool({ current: callScope(Date.now() + 300).scope });
    try {
      const started = Date.now();
      await expect(withTransaction(pool, (client) => client.query('SELECT pg_sleep(5)'))).rejects.toMatchObject({ code: '57014' });
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await pool.end();
    }
  });

  it('when the call has already ended, then no connection is taken for it', async () => {
    const call = callScope();
    call.end();
    const pool = scopedPool({ current: call.scope });
    try {
      await expect(pool.query('SELECT 1')).rejects.toMatchObject({ code: '57014' });
      expect(pool.totalCount).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('when the call ends while it waits for a connection, then its query is not run when one comes free', async () => {
    const holder = callScope();
    const waiter = callScope();
    const scope: { current?: QueryScope } = {};
    const pool = scopedPool(scope);
    try {
      // Both of the pool's connections are taken.
      scope.current = holder.scope;
      const holding = Promise.all([pool.query('SELECT pg_sleep(0.3)'), pool.query('SELECT pg_sleep(0.3)')]);
      scope.current = waiter.scope;
      const waiting = pool.query("SELECT 'ran' AS ran").catch((error: { code?: string; message: string }) => error);
      scope.current = undefined;
      waiter.end();
      await holding;
      const answer = (await waiting) as { code?: string; message: string };
      expect(answer.code).toBe('57014');
      expect(answer.message).toMatch(/the call it ran for ended/);
    } finally {
      await pool.end();
    }
  });
});

describe('a cancel request and the next call', () => {
  /** A pool of one connection, so that the next call would get the connection the last one used. */
  function onePool(scope: { current?: QueryScope }) {
    return createPool(inject('databaseUrl'), { max: 1, applicationName: 'rex-cancel-test', scope: () => scope.current });
  }
  const backendPid = async (pool: pg.Pool) => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

  it('when a call ends while its transaction runs a statement, then the connection is closed after the rollback and the next call gets another', async () => {
    const scope: { current?: QueryScope } = {};
    const pool = onePool(scope);
    try {
      const before = await backendPid(pool);
      const call = callScope();
      scope.current = call.scope;
      setTimeout(call.end, 100);
      await expect(withTransaction(pool, (client) => client.query('SELECT pg_sleep(10)'))).rejects.toMatchObject({ code: '57014' });
      scope.current = undefined;
      expect(await backendPid(pool)).not.toBe(before);
    } finally {
      await pool.end();
    }
  });

  it('when a call ends just as its statement finishes, then the cancel request sent for it does not cancel the next call\'s statement on that connection', async () => {
    // A cancel request takes a connection of its own and arrives a millisecond or more later;
    // PostgreSQL cancels whatever the connection's server process runs then.
    const scope: { current?: QueryScope } = {};
    const pool = onePool(scope);
    try {
      const answers: string[] = [];
      for (let round = 0; round < 10; round += 1) {
        // The pool holds an idle connection, so the statement below is sent at once.
        await backendPid(pool);
        const call = callScope();
        scope.current = call.scope;
        const quick = pool.query('SELECT 1').catch(() => undefined);
        // The statement is on its way: the call ends now.
        await new Promise((resolve) => setImmediate(resolve));
        call.end();
        await quick;
        scope.current = undefined;
        answers.push(await pool.query('SELECT pg_sleep(0.2)').then(() => 'ran', (error: { message: string }) => error.message));
      }
      expect(answers).toEqual(Array.from({ length: 10 }, () => 'ran'));
    } finally {
      await pool.end();
    }
  });
});

describe('pools of named queries', () => {
  it('when a pool plans each run and serves a number of queries per connection, then its connections say so and are replaced after that many', async () => {
    const pool = createPool(inject('databaseUrl'), { max: 1, applicationName: 'rex-prepared-test', customPlans: true, maxUses: 3 });
    try {
      const backend = async () => (await pool.query<{ pid: number; mode: string }>({ name: 'who', text: "SELECT pg_backend_pid() AS pid, current_setting('plan_cache_mode') AS mode" })).rows[0];
      const first = await backend();
      expect(first.mode).toBe('force_custom_plan');
      expect((await backend()).pid).toBe(first.pid);
      expect((await backend()).pid).toBe(first.pid);
      // The named statement is prepared again on the new connection.
      expect((await backend()).pid).not.toBe(first.pid);
    } finally {
      await pool.end();
    }
  });
});

describe('compiling statements', () => {
  it("when a pool does not ask for PostgreSQL's JIT compiler, then its connections run without it; one that asks has it", async () => {
    const plain = createPool(inject('databaseUrl'), { max: 1, applicationName: 'rex-jit-test' });
    const compiling = createPool(inject('databaseUrl'), { max: 1, applicationName: 'rex-jit-test', jit: true, customPlans: true });
    try {
      // Where the connection's setting comes from: the client's startup options, or the server.
      const jit = async (pool: typeof plain) => (await pool.query<{ value: string; source: string }>("SELECT setting AS value, source FROM pg_settings WHERE name = 'jit'")).rows[0];
      expect(await jit(plain)).toEqual({ value: 'off', source: 'client' });
      expect((await jit(compiling)).source).not.toBe('client');
      expect((await compiling.query("SELECT current_setting('plan_cache_mode') AS mode")).rows[0].mode).toBe('force_custom_plan');
    } finally {
      await Promise.all([plain.end(), compiling.end()]);
    }
  });

  it("when a pool gives a page cost, then its connections plan with it for sequential and random pages; one that gives none keeps the server's", async () => {
    const cached = createPool(inject('databaseUrl'), { max: 1, applicationName: 'rex-page-cost-test', pageCost: 0.1 });
    const plain = createPool(inject('databaseUrl'), { max: 1, applicationName: 'rex-page-cost-test' });
    try {
      const costs = async (pool: typeof plain) =>
        (await pool.query<{ name: string; value: string; source: string }>(
          "SELECT name, setting AS value, source FROM pg_settings WHERE name IN ('seq_page_cost', 'random_page_cost') ORDER BY name",
        )).rows;
      expect(await costs(cached)).toEqual([
        { name: 'random_page_cost', value: '0.1', source: 'client' },
        { name: 'seq_page_cost', value: '0.1', source: 'client' },
      ]);
      expect((await costs(plain)).map((row) => row.source)).not.toContain('client');
    } finally {
      await Promise.all([cached.end(), plain.end()]);
    }
  });
});

describe('a transaction outlived by its call', () => {
  it('when the call runs out of time before the transaction commits, then it is rolled back and the caller hears so', async () => {
    const call = callScope(Date.now() + 400);
    const pool = scopedPool({ current: call.scope });
    const marker = `late-${Date.now()}`;
    try {
      await pool.query('CREATE TABLE IF NOT EXISTS public.rex_late_commit (marker text)');
      // Every statement finishes within the deadline; only the commit would come after it.
      const late = withTransaction(pool, async (client) => {
        await client.query('INSERT INTO public.rex_late_commit VALUES ($1)', [marker]);
        await new Promise((resolve) => setTimeout(resolve, 450));
      });
      await expect(late).rejects.toMatchObject({ code: '57014' });
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM public.rex_late_commit WHERE marker = $1', [marker]);
      expect(rows[0].n).toBe(0);
    } finally {
      await pool.query('DROP TABLE IF EXISTS public.rex_late_commit').catch(() => undefined);
      await pool.end();
    }
  });

  it('when the call still has time, then the transaction commits', async () => {
    const call = callScope(Date.now() + 5_000);
    const pool = scopedPool({ current: call.scope });
    try {
      expect(await withTransaction(pool, async (client) => (await client.query('SELECT 1 AS one')).rows[0].one)).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
