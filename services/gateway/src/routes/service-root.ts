import express, { type ErrorRequestHandler, type Router } from 'express';
import { SCOPES } from '../auth/caller.ts';
import type { Cors } from '../auth/cors.ts';
import type { MethodName, RestConfig } from '@rex/rest-config';
import { answerFormat } from './answer-format.ts';
import { publicOrigin, servicesUrl } from './context.ts';
import { escapeHtml } from './html-page.ts';
import { answerOtherMethods } from './path-methods.ts';
import { publicFilesOpenApi } from './public-files.ts';
import { openApiPath, type Route } from './route.ts';

/** How each method's credentials are sent. */
const CREDENTIALS: Record<MethodName, { header: string; url?: string }> = {
  jwtUser: { header: 'Authorization: Bearer <JWT signed by the website, iss = website url, http://{claim_namespace}/user:id = user id>' },
  jwtClient: { header: 'Authorization: Bearer <JWT signed by the client, iss = <website url>:<client username>> and ?proj_id=<project>' },
  directClient: { header: 'Authorization: USER:<client username>:SECRET:<secret> and ?proj_id=<project>', url: '?user=<client username>&secret=<secret>&proj_id=<project>' },
  directUser: { header: 'Authorization: USER_ID:<user id>:WEBSITE_ID:<website id>:SECRET:<website password>[:SCOPE:<scope>]', url: '?user_id=<user id>&website_id=<website id>&secret=<website password>[&scope=<scope>]' },
  directWebsite: { header: 'Authorization: WEBSITE_ID:<website id>:SECRET:<website password>[:SCOPE:<scope>[:USER_ID:<user id>]]', url: '?website_id=<website id>&secret=<website password>[&scope=<scope>&user_id=<user id>]' },
  hmacClient: { header: 'Authorization: USER:<client id>:HMAC:<hex HMAC-SHA1 of the complete URL, keyed with the shared secret> and ?proj_id=<project>' },
  hmacWebsite: { header: 'Authorization: WEBSITE_ID:<website id>:HMAC:<hex HMAC-SHA1 of the complete URL, keyed with the website password>' },
};

const EXAMPLE_VALUES: Record<string, string> = { id: '123', path: '_search' };

/** The page lists deprecated resources only when asked (`?deprecated`), as the warehouse's does. */
function describe(config: RestConfig, routes: Route[], base: string, withDeprecated: boolean) {
  return {
    title: 'Record-Exchange REST API',
    version: '1.0',
    openapi: `${base}/openapi.json`,
    authentication: {
      scopes: SCOPES,
      claim_namespace: config.claim_namespace,
      methods: config.methods.map(({ name, options }) => ({
        method: name,
        header: CREDENTIALS[name].header.replace('{claim_namespace}', config.claim_namespace),
        ...(config.allow_auth_tokens_in_url && CREDENTIALS[name].url ? { url_parameters: CREDENTIALS[name].url } : {}),
        https_only: !options.allow_http,
        cors: options.allow_cors,
      })),
    },
    submission_format:
      'POST and PUT send {"values": {<field>: <value>, ...}} with child records as arrays under occurrences, samples and media; ' +
      'custom attributes as smpAttr:<id>, occAttr:<id> or locAttr:<id> (a list for several values); ' +
      'on PUT, smpAttr:<id>:<valueId> or occAttr:<id>:<valueId> changes one stored value ("" removes it).',
    resources: routes.filter((route) => withDeprecated || !route.deprecated).map((route) => ({
      resource: route.resource,
      method: route.method.toUpperCase(),
      path: openApiPath(route.path).slice(1),
      example: `${base}${route.path.replace(/[:*]([A-Za-z_]+)/g, (_m, name: string) => EXAMPLE_VALUES[name] ?? name)}`,
      help: route.summary,
      parameters: route.parameters ?? [],
      responses: route.responses,
      ...(route.deprecated ? { deprecated: true } : {}),
    })),
  };
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['code', 'status'],
  properties: {
    code: { type: 'integer' },
    status: { type: 'string' },
    message: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }] },
  },
};

const VALUE_SCHEMA = { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }] };

/** OpenAPI 3.1 from the route table the gateway runs. */
export function openApi(config: RestConfig, routes: Route[], base: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: `${route.method}${route.resource.replace(/(^|[-_])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}${route.path.includes(':') ? 'ById' : route.path.includes('*') ? 'Path' : ''}`,
      summary: route.summary,
      ...(route.deprecated ? { deprecated: true } : {}),
      tags: [route.resource],
      parameters: (route.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.in === 'path' || !!p.required, description: p.description, schema: { type: p.type } })),
      ...(route.submission
        ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Submission' } } } } }
        : route.json
          ? { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } }
          : route.rawBody && route.method === 'post'
            ? { requestBody: { required: false, content: { 'application/json': { schema: { type: 'object' } } } } }
            : {}),
      ...(route.open ? { security: [] } : {}),
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, description]) => [
          status,
          Number(status) >= 400
            ? { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
            : Number(status) === 204
              ? { description }
              : { description, content: { 'application/json': { schema: { type: 'object' } } } },
        ]),
      ),
    };
  }
  const schemes: Record<string, unknown> = {};
  for (const { name } of config.methods) {
    schemes[name] = name.startsWith('jwt')
      ? { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: CREDENTIALS[name].header }
      : { type: 'apiKey', in: 'header', name: 'Authorization', description: CREDENTIALS[name].header };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Record-Exchange REST API', version: '1.0' },
    servers: [{ url: base }],
    security: config.methods.map(({ name }) => ({ [name]: [] })),
    paths,
    components: {
      securitySchemes: schemes,
      schemas: {
        Error: ERROR_SCHEMA,
        Submission: {
          type: 'object',
          properties: {
            values: { type: 'object', additionalProperties: VALUE_SCHEMA },
            occurrences: { type: 'array', items: { $ref: '#/components/schemas/Submission' } },
            samples: { type: 'array', items: { $ref: '#/components/schemas/Submission' } },
            media: { type: 'array', items: { $ref: '#/components/schemas/Submission' } },
          },
        },
      },
    },
  };
}

function html(description: ReturnType<typeof describe>): string {
  const methods = description.authentication.methods
    .map(
      (m) =>
        `<tr><td>${m.method}</td><td><code>${escapeHtml(m.header)}</code>${m.url_parameters ? `<br>or <code>${escapeHtml(m.url_parameters)}</code>` : ''}</td><td>${m.https_only ? 'HTTPS only' : 'HTTP allowed'}</td></tr>`,
    )
    .join('\n');
  const resources = description.resources
    .map((r) => {
      const params = r.parameters.map((p) => `${escapeHtml(p.name)} (${p.type}): ${escapeHtml(p.description)}`).join('<br>');
      return `<tr><td>${r.method}</td><td><code>${escapeHtml(r.path)}</code></td><td><a href="${escapeHtml(r.example)}">${escapeHtml(r.example)}</a></td><td>${escapeHtml(r.help)}</td><td>${params}</td></tr>`;
    })
    .join('\n');
  return `<!DOCTYPE HTML>
<html lang="en"><head><meta charset="utf-8"><title>${description.title}</title>
<style>body{font-family:sans-serif;max-width:72em;margin:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em;vertical-align:top;text-align:left}</style></head>
<body><h1>${description.title}</h1>
<p>OpenAPI document: <a href="${escapeHtml(description.openapi)}">${escapeHtml(description.openapi)}</a></p>
<h2>Authentication</h2>
<p>Scopes: ${description.authentication.scopes.join(', ')}.</p>
<table><tr><th>Method</th><th>Credentials</th><th>Transport</th></tr>
${methods}
</table>
<h2>Submission format</h2><p>${escapeHtml(description.submission_format)}</p>
<h2>Resources</h2>
<table><tr><th>Method</th><th>Path</th><th>Example</th><th>Help</th><th>Parameters</th></tr>
${resources}
</table></body></html>`;
}

/** GET {services}/rest (the self-describing page) and {services}/rest/openapi.json, with no authentication. */
export function serviceRootRouter(config: RestConfig, routes: Route[], cors: Cors, answerError: ErrorRequestHandler): Router {
  const router = express.Router();
  router.get('/rest', (req, res) => {
    const format = answerFormat(req, ['json', 'html']);
    const description = describe(config, routes, `${servicesUrl(req)}/rest`, req.query.deprecated !== undefined);
    res.vary('Accept');
    if (format === 'html') res.type('html').send(html(description));
    else res.json(description);
  });
  router.get('/rest/openapi.json', (req, res) => {
    const document = openApi(config, routes, `${servicesUrl(req)}/rest`);
    // The files the apps build links to sit beside the service root (decision 14).
    if (config.media.public_files) Object.assign(document.paths as object, publicFilesOpenApi(publicOrigin(req)));
    res.json(document);
  });
  answerOtherMethods(
    router,
    new Map([
      ['/rest', ['GET']],
      ['/rest/openapi.json', ['GET']],
    ]),
    cors,
    answerError,
  );
  return router;
}
