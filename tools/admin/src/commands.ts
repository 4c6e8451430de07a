import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { migrate, type Pool } from '@rex/db';
import { SCHEMA as AUTH_SCHEMA, migrations as authMigrations } from '@rex/gateway/migrations';
import { clients, connections, users, websites } from '@rex/gateway/admin';
import { groups, licences, sampleMethods } from '@rex/records/admin';
import {
  createSubscription,
  deleteSubscription,
  disableSubscription,
  enableSubscription,
  getSubscription,
  listDeadLetters,
  listSubscriptions,
  parseSubscription,
  requestReplay,
  rotateSecret,
} from '@rex/gateway/webhooks';
import { migrateAll } from './import.ts';

/** An option of a command: its value type and whether it must be given. */
type Option = { type: 'string' | 'integer' | 'boolean'; required?: boolean; help: string };
export type Command = {
  help: string;
  options: Record<string, Option>;
  /** Reads or writes the records schema (else only auth). */
  records?: true;
  run: (pool: Pool, args: Record<string, string | number | boolean | undefined>) => Promise<string>;
};

export class CommandError extends Error {}

const ROLES: Record<string, number | null> = { admin: 1, editor: 2, user: 3, none: null };
const SHARING: Record<string, string> = { reporting: 'R', verification: 'V', data_flow: 'D', moderation: 'M', peer_review: 'P', editing: 'E' };

const newSecret = () => randomBytes(24).toString('base64url');

function readKey(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('-----BEGIN PUBLIC KEY-----')) throw new CommandError(`${file} holds no PEM public key`);
    return text;
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * A password or secret the operator chose: from a file (`--<name>-file`) or
 * from standard input (`--<name> -`), never as a command-line value, which
 * other users of the machine can read in the process list. Undefined when
 * neither is given (a new one is generated).
 */
function chosenSecret(args: Record<string, string | number | boolean | undefined>, name: string): string | undefined {
  const file = args[`${name}-file`];
  const value = args[name];
  if (value !== undefined && value !== '-') {
    throw new CommandError(`give --${name}-file <file> or --${name} - (read from standard input): a ${name} on the command line is visible to other users of the machine`);
  }
  let text: string;
  try {
    if (typeof file === 'string') text = readFileSync(file, 'utf8');
    else if (value === '-') text = readFileSync(0, 'utf8');
    else return undefined;
  } catch (error) {
    throw new CommandError(`cannot read the ${name}: ${(error as Error).message}`);
  }
  const chosen = text.replace(/\r?\n$/, '');
  if (!chosen) throw new CommandError(`the ${name} given is empty`);
  return chosen;
}

function table(rows: Record<string, unknown>[]): string {
  if (!rows.length) return '(none)';
  const columns = Object.keys(rows[0]);
  const cell = (value: unknown) => (value === null || value === undefined ? '' : Array.isArray(value) ? value.join(',') : String(value));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

/** Changes through `write` (the owner's update, told the given columns); fails when none is given or nothing matched. */
async function change(columns: Record<string, unknown>, what: string, write: (columns: Record<string, unknown>) => Promise<boolean>): Promise<void> {
  if (!Object.values(columns).some((value) => value !== undefined)) throw new CommandError('nothing to change: give at least one option to update');
  if (!(await write(columns))) throw new CommandError(`${what} not found`);
}

/** Marks a row deleted through `write`; fails when nothing matched. */
async function disable(what: string, write: (columns: Record<string, unknown>) => Promise<boolean>): Promise<void> {
  if (!(await write({ deleted: true }))) throw new CommandError(`${what} not found`);
}

const flag = (value: unknown) => (value === undefined ? undefined : Boolean(value));

const SECRET_OVERLAP_S = 86_400;

/** A subscription named by --id, which must exist. */
async function subscriptionOf(pool: Pool, id: unknown) {
  const subscription = await getSubscription(pool, String(id));
  if (!subscription) throw new CommandError(`webhook subscription ${id} not found`);
  return subscription;
}

const isoOrEmpty = (date: Date | null) => (date ? date.toISOString() : '');

export const COMMANDS: Record<string, Command> = {
  'websites list': {
    help: 'list websites (passwords are not shown)',
    options: {},
    run: async (pool) => table(await websites.list(pool)),
  },
  'websites add': {
    help: 'add a website; prints its password (give --password-file or --password - to choose it)',
    options: {
      title: { type: 'string', required: true, help: 'title' },
      url: { type: 'string', required: true, help: 'url, the iss of its tokens' },
      password: { type: 'string', help: '"-" reads the password (direct and HMAC methods) from standard input; generated when left out' },
      'password-file': { type: 'string', help: 'file holding the password' },
      'public-key-file': { type: 'string', help: 'PEM file with one or more public keys for its tokens' },
      'jwks-url': { type: 'string', help: 'URL of a JWKS with its token keys' },
      'allow-anon-jwt-post': { type: 'boolean', help: 'tokens without a user may create records' },
    },
    run: async (pool, a) => {
      const password = chosenSecret(a, 'password') ?? newSecret();
      const id = await websites.add(pool, {
        title: String(a.title),
        url: String(a.url),
        password,
        publicKey: readKey(a['public-key-file'] as string | undefined) ?? null,
        jwksUrl: (a['jwks-url'] as string | undefined) ?? null,
        allowAnonJwtPost: Boolean(a['allow-anon-jwt-post']),
      });
      return `website ${id} added; password: ${password}`;
    },
  },
  'websites update': {
    help: 'change a website',
    options: {
      id: { type: 'integer', required: true, help: 'website id' },
      title: { type: 'string', help: 'title' },
      url: { type: 'string', help: 'url' },
      'public-key-file': { type: 'string', help: 'PEM file with its public key(s); several keys allow a rotation' },
      'jwks-url': { type: 'string', help: 'URL of a JWKS ("" removes it)' },
      'allow-anon-jwt-post': { type: 'boolean', help: 'tokens without a user may create records' },
      'jwt-require-exp': { type: 'boolean', help: 'its user tokens must have an expiry (exp)' },
      'jwt-max-age': { type: 'integer', help: 'seconds its user tokens stay valid after iat (0 removes the limit)' },
      'jwt-audience': { type: 'string', help: 'the aud its user tokens must name ("" removes it)' },
    },
    run: async (pool, a) => {
      await change(
        {
          title: a.title,
          url: a.url,
          public_key: readKey(a['public-key-file'] as string | undefined),
          jwks_url: a['jwks-url'] === '' ? null : a['jwks-url'],
          allow_anon_jwt_post: flag(a['allow-anon-jwt-post']),
          jwt_require_exp: flag(a['jwt-require-exp']),
          jwt_max_age_s: a['jwt-max-age'] === undefined ? undefined : Number(a['jwt-max-age']) || null,
          jwt_audience: a['jwt-audience'] === '' ? null : a['jwt-audience'],
        },
        `website ${a.id}`,
        (columns) => websites.update(pool, a.id, columns),
      );
      return `website ${a.id} updated`;
    },
  },
  'websites disable': {
    help: 'disable a website: its credentials stop working',
    options: { id: { type: 'integer', required: true, help: 'website id' } },
    run: async (pool, a) => {
      await disable(`website ${a.id}`, (columns) => websites.update(pool, a.id, columns));
      return `website ${a.id} disabled`;
    },
  },
  'websites rotate-password': {
    help: 'give a website a new password; prints it',
    options: {
      id: { type: 'integer', required: true, help: 'website id' },
      password: { type: 'string', help: '"-" reads the new password from standard input; generated when left out' },
      'password-file': { type: 'string', help: 'file holding the new password' },
    },
    run: async (pool, a) => {
      const password = chosenSecret(a, 'password') ?? newSecret();
      await change({ password }, `website ${a.id}`, (columns) => websites.update(pool, a.id, columns));
      return `website ${a.id} password: ${password}`;
    },
  },
  'users list': {
    help: 'list users with their roles',
    options: { 'website-id': { type: 'integer', help: 'only users with a role on this website' } },
    run: async (pool, a) => table(await users.list(pool, a['website-id'])),
  },
  'users add': {
    help: 'add a user',
    options: { username: { type: 'string', required: true, help: 'username' }, email: { type: 'string', help: 'email' } },
    run: async (pool, a) => {
      const id = await users.add(pool, { username: String(a.username), email: (a.email as string | undefined) ?? null });
      return `user ${id} added`;
    },
  },
  'users update': {
    help: 'change a user',
    options: { id: { type: 'integer', required: true, help: 'user id' }, username: { type: 'string', help: 'username' }, email: { type: 'string', help: 'email' } },
    run: async (pool, a) => {
      await change({ username: a.username, email: a.email }, `user ${a.id}`, (columns) => users.update(pool, a.id, columns));
      return `user ${a.id} updated`;
    },
  },
  'users disable': {
    help: 'disable a user everywhere',
    options: { id: { type: 'integer', required: true, help: 'user id' } },
    run: async (pool, a) => {
      await disable(`user ${a.id}`, (columns) => users.update(pool, a.id, columns));
      return `user ${a.id} disabled`;
    },
  },
  'users role': {
    help: "set a user's role on a website (admin, editor, user, or none to remove it)",
    options: {
      id: { type: 'integer', required: true, help: 'user id' },
      'website-id': { type: 'integer', required: true, help: 'website id' },
      role: { type: 'string', required: true, help: 'admin | editor | user | none' },
      banned: { type: 'boolean', help: 'ban the user from the website' },
    },
    run: async (pool, a) => {
      if (!(String(a.role) in ROLES)) throw new CommandError(`unknown role ${a.role}; one of ${Object.keys(ROLES).join(', ')}`);
      const role = ROLES[String(a.role)];
      if (role === null) {
        await users.removeRole(pool, a.id, a['website-id']);
        return `user ${a.id} has no role on website ${a['website-id']}`;
      }
      try {
        await users.setRole(pool, a.id, a['website-id'], role, Boolean(a.banned));
      } catch {
        throw new CommandError(`user ${a.id} or website ${a['website-id']} not found`);
      }
      return `user ${a.id} is ${a.role}${a.banned ? ' (banned)' : ''} on website ${a['website-id']}`;
    },
  },
  'clients list': {
    help: 'list REST clients and their connections',
    options: {},
    run: async (pool) => table(await clients.list(pool)),
  },
  'clients add': {
    help: 'add a REST client; prints its secret (stored hashed, shown once)',
    options: {
      username: { type: 'string', required: true, help: 'username' },
      title: { type: 'string', help: 'title' },
      secret: { type: 'string', help: '"-" reads the secret from standard input; generated when left out' },
      'secret-file': { type: 'string', help: 'file holding the secret' },
      'public-key-file': { type: 'string', help: 'PEM file with its public key(s), for jwtClient' },
      'jwks-url': { type: 'string', help: 'URL of a JWKS with its keys, for jwtClient' },
    },
    run: async (pool, a) => {
      const secret = chosenSecret(a, 'secret') ?? newSecret();
      const id = await clients.add(pool, {
        username: String(a.username),
        title: String(a.title ?? a.username),
        secret,
        publicKey: readKey(a['public-key-file'] as string | undefined) ?? null,
        jwksUrl: (a['jwks-url'] as string | undefined) ?? null,
      });
      return `client ${id} added; secret: ${secret}`;
    },
  },
  'clients update': {
    help: 'change a REST client',
    options: {
      id: { type: 'integer', required: true, help: 'client id' },
      title: { type: 'string', help: 'title' },
      'public-key-file': { type: 'string', help: 'PEM file with its public key(s)' },
      'jwks-url': { type: 'string', help: 'URL of a JWKS ("" removes it)' },
    },
    run: async (pool, a) => {
      await change(
        { title: a.title, public_key: readKey(a['public-key-file'] as string | undefined), jwks_url: a['jwks-url'] === '' ? null : a['jwks-url'] },
        `client ${a.id}`,
        (columns) => clients.update(pool, a.id, columns),
      );
      return `client ${a.id} updated`;
    },
  },
  'clients disable': {
    help: 'disable a REST client and so all its connections',
    options: { id: { type: 'integer', required: true, help: 'client id' } },
    run: async (pool, a) => {
      await disable(`client ${a.id}`, (columns) => clients.update(pool, a.id, columns));
      return `client ${a.id} disabled`;
    },
  },
  'clients rotate-secret': {
    help: 'give a REST client a new secret; prints it',
    options: {
      id: { type: 'integer', required: true, help: 'client id' },
      secret: { type: 'string', help: '"-" reads the new secret from standard input; generated when left out' },
      'secret-file': { type: 'string', help: 'file holding the new secret' },
    },
    run: async (pool, a) => {
      const secret = chosenSecret(a, 'secret') ?? newSecret();
      if (!(await clients.setSecret(pool, a.id, secret))) throw new CommandError(`client ${a.id} not found`);
      return `client ${a.id} secret: ${secret}`;
    },
  },
  'connections add': {
    help: "add a connection (project) to a client",
    options: {
      'client-id': { type: 'integer', required: true, help: 'client id' },
      'proj-id': { type: 'string', required: true, help: 'project id, unique for the client' },
      'website-id': { type: 'integer', required: true, help: 'website whose data it reaches' },
      title: { type: 'string', required: true, help: 'title' },
      sharing: { type: 'string', help: 'reporting (default), verification, data_flow, moderation, peer_review or editing' },
      'allow-confidential': { type: 'boolean', help: 'include confidential records' },
      'allow-sensitive': { type: 'boolean', help: 'include sensitive records (default true)' },
      'allow-unreleased': { type: 'boolean', help: 'include unreleased records' },
      'allow-reports': { type: 'boolean', help: 'may run reports (default true)' },
      'allow-data-resources': { type: 'boolean', help: 'may use data resources (default true)' },
      'allow-change-feed': { type: 'boolean', help: 'may read the change feed' },
    },
    run: async (pool, a) => {
      const sharing = SHARING[String(a.sharing ?? 'reporting')];
      if (!sharing) throw new CommandError(`unknown sharing ${a.sharing}; one of ${Object.keys(SHARING).join(', ')}`);
      try {
        await connections.add(pool, {
          clientId: a['client-id'],
          projId: String(a['proj-id']),
          websiteId: a['website-id'],
          title: String(a.title),
          sharing,
          allowConfidential: Boolean(a['allow-confidential']),
          allowSensitive: Boolean(a['allow-sensitive'] ?? true),
          allowUnreleased: Boolean(a['allow-unreleased']),
          allowReports: Boolean(a['allow-reports'] ?? true),
          allowDataResources: Boolean(a['allow-data-resources'] ?? true),
          allowChangeFeed: Boolean(a['allow-change-feed']),
        });
      } catch (error) {
        throw new CommandError(`cannot add the connection: ${(error as { detail?: string }).detail ?? (error as Error).message}`);
      }
      return `connection ${a['proj-id']} added to client ${a['client-id']}`;
    },
  },
  'connections update': {
    help: "change a client's connection",
    options: {
      'client-id': { type: 'integer', required: true, help: 'client id' },
      'proj-id': { type: 'string', required: true, help: 'project id' },
      title: { type: 'string', help: 'title' },
      sharing: { type: 'string', help: 'reporting, verification, data_flow, moderation, peer_review or editing' },
      'allow-confidential': { type: 'boolean', help: 'include confidential records' },
      'allow-sensitive': { type: 'boolean', help: 'include sensitive records' },
      'allow-unreleased': { type: 'boolean', help: 'include unreleased records' },
      'allow-reports': { type: 'boolean', help: 'may run reports' },
      'allow-data-resources': { type: 'boolean', help: 'may use data resources' },
      'allow-change-feed': { type: 'boolean', help: 'may read the change feed' },
    },
    run: async (pool, a) => {
      const sharing = a.sharing === undefined ? undefined : SHARING[String(a.sharing)];
      if (a.sharing !== undefined && !sharing) throw new CommandError(`unknown sharing ${a.sharing}`);
      await change(
        {
          title: a.title,
          sharing,
          allow_confidential: flag(a['allow-confidential']),
          allow_sensitive: flag(a['allow-sensitive']),
          allow_unreleased: flag(a['allow-unreleased']),
          allow_reports: flag(a['allow-reports']),
          allow_data_resources: flag(a['allow-data-resources']),
          allow_change_feed: flag(a['allow-change-feed']),
        },
        `connection ${a['proj-id']} of client ${a['client-id']}`,
        (columns) => connections.update(pool, a['client-id'], a['proj-id'], columns),
      );
      return `connection ${a['proj-id']} of client ${a['client-id']} updated`;
    },
  },
  'connections disable': {
    help: "disable a client's connection",
    options: { 'client-id': { type: 'integer', required: true, help: 'client id' }, 'proj-id': { type: 'string', required: true, help: 'project id' } },
    run: async (pool, a) => {
      await disable(`connection ${a['proj-id']} of client ${a['client-id']}`, (columns) => connections.update(pool, a['client-id'], a['proj-id'], columns));
      return `connection ${a['proj-id']} of client ${a['client-id']} disabled`;
    },
  },
  'groups list': {
    records: true,
    help: 'list recording groups',
    options: { 'website-id': { type: 'integer', help: 'only the groups of this website' } },
    run: async (pool, a) => table(await groups.list(pool, a['website-id'])),
  },
  'groups add': {
    records: true,
    help: "add a recording group to a website; the website's samples may then name it in group_id",
    options: {
      'website-id': { type: 'integer', required: true, help: 'the website it belongs to' },
      title: { type: 'string', required: true, help: 'title' },
      code: { type: 'string', help: 'short code' },
      description: { type: 'string', help: 'description' },
    },
    run: async (pool, a) => {
      if (!(await websites.exists(pool, a['website-id']))) throw new CommandError(`website ${a['website-id']} not found`);
      const id = await groups.add(pool, {
        websiteId: a['website-id'],
        title: String(a.title),
        code: (a.code as string | undefined) ?? null,
        description: (a.description as string | undefined) ?? null,
      });
      return `group ${id} added to website ${a['website-id']}`;
    },
  },
  'groups update': {
    records: true,
    help: 'change a recording group',
    options: {
      id: { type: 'integer', required: true, help: 'group id' },
      title: { type: 'string', help: 'title' },
      code: { type: 'string', help: 'short code' },
      description: { type: 'string', help: 'description' },
    },
    run: async (pool, a) => {
      await change({ title: a.title, code: a.code, description: a.description }, `group ${a.id}`, (columns) => groups.update(pool, a.id, columns));
      return `group ${a.id} updated`;
    },
  },
  'groups disable': {
    records: true,
    help: 'disable a recording group: new and changed samples may no longer name it (stored ones keep it)',
    options: { id: { type: 'integer', required: true, help: 'group id' } },
    run: async (pool, a) => {
      await disable(`group ${a.id}`, (columns) => groups.update(pool, a.id, columns));
      return `group ${a.id} disabled`;
    },
  },
  'sample-methods list': {
    records: true,
    help: 'list the sample methods (the terms a sample_method_id may name)',
    options: {},
    run: async (pool) => table(await sampleMethods.list(pool)),
  },
  'sample-methods add': {
    records: true,
    help: 'add a sample method',
    options: { term: { type: 'string', required: true, help: 'the method, e.g. Transect' } },
    run: async (pool, a) => {
      return `sample method ${await sampleMethods.add(pool, String(a.term))} added`;
    },
  },
  'licences list': {
    records: true,
    help: 'list the licences a sample or medium may name in licence_id',
    options: {},
    run: async (pool) => table(await licences.list(pool)),
  },
  'licences add': {
    records: true,
    help: 'add a licence',
    options: {
      code: { type: 'string', required: true, help: 'code, unique, e.g. CC-BY-SA' },
      title: { type: 'string', required: true, help: 'title' },
      url: { type: 'string', help: 'address of its readable text' },
      version: { type: 'string', help: 'version, e.g. 4.0' },
    },
    run: async (pool, a) => {
      const id = await licences.add(pool, { code: String(a.code), title: String(a.title), url: (a.url as string | undefined) ?? null, version: (a.version as string | undefined) ?? null });
      return `licence ${id} added`;
    },
  },
  'webhooks list': {
    help: 'list webhook subscriptions with their state and failures (secrets are not shown)',
    options: { 'website-id': { type: 'integer', help: 'only those of this website (its own and its connections\')' } },
    run: async (pool, a) =>
      table(
        (await listSubscriptions(pool))
          .filter((s) => a['website-id'] === undefined || s.website_id === String(a['website-id']))
          .map((s) => ({
            id: s.id,
            website_id: s.website_id,
            connection: s.proj_id ? `${s.client_id}:${s.proj_id}` : '',
            url: s.url,
            event_types: s.event_types,
            state: s.state,
            failing_since: isoOrEmpty(s.failing_since),
            delivered: s.delivered,
            dead_letters: s.dead_letters,
            reason_or_last_error: (s.state === 'disabled' ? s.disabled_reason : s.failing_since ? s.last_error : '')?.slice(0, 80) ?? '',
          })),
      ),
  },
  'webhooks add': {
    help: 'subscribe a URL to the changes a website (or one of its client connections) may see; prints the secret (shown once); delivery starts from the moment a gateway first looks at it',
    options: {
      'website-id': { type: 'integer', required: true, help: 'the website whose feed it follows' },
      'client-id': { type: 'integer', help: 'with --proj-id: a client connection\'s feed instead (it needs allow_change_feed)' },
      'proj-id': { type: 'string', help: 'the connection\'s project id' },
      url: { type: 'string', required: true, help: 'https:// address the changes are POSTed to' },
      'event-types': { type: 'string', required: true, help: 'comma-separated: sample|occurrence|location . created|updated|deleted, e.g. occurrence.created,occurrence.deleted' },
      'survey-id': { type: 'integer', help: 'only records of this survey' },
      'taxon-group': { type: 'string', help: 'only occurrences of this taxon group' },
      'allow-http': { type: 'boolean', help: 'accept an http:// URL (gateways deliver it only with WEBHOOKS_ALLOW_HTTP=true)' },
      'allow-private': { type: 'boolean', help: 'accept a URL at an address that is not public (gateways deliver it only with WEBHOOKS_ALLOW_PRIVATE=true)' },
    },
    run: async (pool, a) => {
      const connection = a['client-id'] !== undefined || a['proj-id'] !== undefined;
      if (connection && (a['client-id'] === undefined || a['proj-id'] === undefined)) throw new CommandError('give both --client-id and --proj-id for a connection\'s subscription');
      const parsed = parseSubscription(
        {
          url: a.url,
          event_types: String(a['event-types']).split(',').map((type) => type.trim()),
          filter: { survey_id: a['survey-id'], taxon_group: a['taxon-group'] },
        },
        { allowHttp: Boolean(a['allow-http']), allowPrivate: Boolean(a['allow-private']) },
      );
      if ('violations' in parsed) throw new CommandError(Object.entries(parsed.violations).map(([field, problem]) => `${field}: ${problem}`).join('\n'));
      let websiteId = String(a['website-id']);
      if (connection) {
        const found = await connections.find(pool, a['client-id'], a['proj-id']);
        if (!found) throw new CommandError(`connection ${a['proj-id']} of client ${a['client-id']} not found`);
        if (found.website_id !== websiteId) throw new CommandError(`connection ${a['proj-id']} of client ${a['client-id']} belongs to website ${found.website_id}`);
        if (!found.allow_change_feed) throw new CommandError(`connection ${a['proj-id']} may not read the change feed: connections update --allow-change-feed first`);
      } else {
        if (!(await websites.exists(pool, websiteId))) throw new CommandError(`website ${websiteId} not found`);
      }
      const created = await createSubscription(pool, {
        owner: { websiteId, clientId: connection ? String(a['client-id']) : null, projId: connection ? String(a['proj-id']) : null },
        ...parsed.input,
        cursor: null,
      });
      return `webhook ${created.id} added; secret: ${created.secret}`;
    },
  },
  'webhooks remove': {
    help: 'delete a webhook subscription and its dead letters',
    options: { id: { type: 'string', required: true, help: 'subscription id (wh_...)' } },
    run: async (pool, a) => {
      if (!(await deleteSubscription(pool, String(a.id)))) throw new CommandError(`webhook subscription ${a.id} not found`);
      return `webhook ${a.id} removed`;
    },
  },
  'webhooks disable': {
    help: 'stop delivering a subscription; its owner sees the reason',
    options: { id: { type: 'string', required: true, help: 'subscription id' }, reason: { type: 'string', help: 'what its owner is told (default: disabled by an operator)' } },
    run: async (pool, a) => {
      if (!(await disableSubscription(pool, String(a.id), String(a.reason ?? 'Disabled by an operator.')))) throw new CommandError(`webhook subscription ${a.id} not found`);
      return `webhook ${a.id} disabled`;
    },
  },
  'webhooks enable': {
    help: 'deliver a disabled subscription again, from where it stopped',
    options: { id: { type: 'string', required: true, help: 'subscription id' } },
    run: async (pool, a) => {
      if (!(await enableSubscription(pool, String(a.id)))) throw new CommandError(`webhook subscription ${a.id} not found`);
      return `webhook ${a.id} enabled`;
    },
  },
  'webhooks rotate-secret': {
    help: 'give a subscription a new secret; prints it; the old one still signs for the overlap',
    options: { id: { type: 'string', required: true, help: 'subscription id' }, 'overlap-s': { type: 'string', help: `seconds the old secret still signs (default ${SECRET_OVERLAP_S}; 0 ends it now)` } },
    run: async (pool, a) => {
      const overlap = a['overlap-s'] === undefined ? SECRET_OVERLAP_S : String(a['overlap-s']);
      if (!/^\d{1,7}$/.test(String(overlap))) throw new CommandError('--overlap-s must be a whole number of seconds');
      const rotated = await rotateSecret(pool, String(a.id), Number(overlap));
      if (!rotated) throw new CommandError(`webhook subscription ${a.id} not found`);
      return `webhook ${a.id} secret: ${rotated.secret} (the old one signs until ${rotated.previous_secret_until?.toISOString()})`;
    },
  },
  'webhooks dead-letters': {
    help: "list a subscription's dead letters (messages that failed for the whole retry window), newest first",
    options: { id: { type: 'string', required: true, help: 'subscription id' }, limit: { type: 'integer', help: 'at most this many (default 100)' } },
    run: async (pool, a) => {
      const subscription = await subscriptionOf(pool, a.id);
      return table(
        (await listDeadLetters(pool, subscription.id, Number(a.limit ?? 100))).map((letter) => ({
          id: letter.id,
          message_id: letter.message_id,
          type: (letter.payload as { type?: string }).type,
          record: (letter.payload as { data?: { id?: string } }).data?.id,
          attempts: letter.attempts,
          last_attempt_on: letter.last_attempt_on.toISOString(),
          state: letter.replayed_on ? 'replayed' : letter.replay_requested_on ? 'queued' : 'dead',
          last_error: letter.last_error.slice(0, 80),
        })),
      );
    },
  },
  'webhooks replay': {
    help: 'queue a dead letter for delivery again, ahead of new changes',
    options: { id: { type: 'string', required: true, help: 'subscription id' }, 'letter-id': { type: 'integer', required: true, help: 'dead letter id' } },
    run: async (pool, a) => {
      const subscription = await subscriptionOf(pool, a.id);
      if (!(await requestReplay(pool, subscription.id, String(a['letter-id'])))) throw new CommandError(`dead letter ${a['letter-id']} of ${subscription.id} not found`);
      return `dead letter ${a['letter-id']} of ${subscription.id} queued for delivery`;
    },
  },
};

/**
 * The schemas a command uses must exist before it runs on a fresh database.
 * Only those: where each service's own role owns its schema, records'
 * migrations are best left to records (a table the owner creates is not
 * records' own).
 */
export const prepare = (pool: Pool, command: Command): Promise<unknown> =>
  command.records ? migrateAll(pool) : migrate(pool, AUTH_SCHEMA, authMigrations());
