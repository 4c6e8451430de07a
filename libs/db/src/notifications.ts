import pg from 'pg';
import type { Logger } from '@rex/logger';
import { databaseSocket } from './database-socket.ts';

/**
 * Listens on a PostgreSQL notification channel over a connection of its own,
 * calling `onChange` for each notification and once more on every (re)connect,
 * since whatever was notified while not listening is lost. A lost connection is
 * retried with back-off until `stop`.
 */
export function followNotifications(options: { url: string; channel: string; onChange: () => void; logger: Logger; retryMs?: { min: number; max: number } }): { stop: () => Promise<void> } {
  const { min, max } = options.retryMs ?? { min: 500, max: 30_000 };
  let stopped = false;
  let client: pg.Client | undefined;
  let delay = min;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, max);
  };

  async function connect(): Promise<void> {
    const current = new pg.Client({ connectionString: options.url, stream: databaseSocket, application_name: `rex-listen-${options.channel}` });
    client = current;
    current.on('notification', (message) => {
      if (message.channel === options.channel) options.onChange();
    });
    current.on('error', (error) => {
      options.logger.warn({ err: error, channel: options.channel }, 'notification connection failed; retrying');
      current.end().catch(() => undefined);
      retry();
    });
    current.on('end', retry);
    try {
      await current.connect();
      await current.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
      if (stopped) return void (await current.end());
      delay = min;
      options.onChange();
    } catch (error) {
      options.logger.warn({ err: error, channel: options.channel }, 'cannot listen for notifications yet; retrying');
      current.end().catch(() => undefined);
      retry();
    }
  }

  void connect();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
