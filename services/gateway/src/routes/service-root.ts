import express, { type Router } from 'express';
import type { RestConfig } from '../rest-config.ts';
import { servicesUrl } from './context.ts';

const RESOURCES = [
  {
    name: 'samples',
    description: 'Samples with their occurrences and child samples, owned by the authenticated user.',
    methods: [
      { method: 'POST', path: 'samples', help: 'Create a sample with nested occurrences and samples in one transaction.' },
      { method: 'GET', path: 'samples/{id}', help: 'Read one of your samples.' },
      { method: 'PUT', path: 'samples/{id}', help: 'Update one of your samples; send only the changed values.' },
      { method: 'DELETE', path: 'samples/{id}', help: 'Delete one of your samples with its children.' },
    ],
  },
];

/** `?format=` wins; else HTML only when the first type the Accept header lists is text/html. */
function wantsHtml(format: unknown, accept: string | undefined): boolean {
  if (format === 'html') return true;
  if (format !== undefined) return false;
  const first = (accept ?? '').split(';')[0].split(',')[0].trim().toLowerCase();
  return first === 'text/html';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** GET {services}/rest: the self-describing page, with no authentication. HTML when asked for, JSON otherwise. */
export function serviceRootRouter(config: RestConfig): Router {
  const router = express.Router();
  router.get(['/rest', '/rest/'], (req, res) => {
    const base = `${servicesUrl(req)}/rest`;
    const description = {
      title: 'Record-Exchange REST API',
      authentication: config.methods.map(({ name, options }) => ({
        method: name,
        https_only: !options.allow_http,
        cors: options.allow_cors,
      })),
      claim_namespace: config.claim_namespace,
      resources: RESOURCES.map((resource) => ({
        ...resource,
        methods: resource.methods.map((m) => ({ ...m, example: `${base}/${m.path.replace('{id}', '123')}` })),
      })),
    };
    if (!wantsHtml(req.query.format, req.get('accept'))) {
      res.json(description);
      return;
    }
    const rows = description.resources
      .flatMap((r) => r.methods.map((m) => `<tr><td>${m.method}</td><td><code>${escapeHtml(m.example)}</code></td><td>${escapeHtml(m.help)}</td></tr>`))
      .join('\n');
    const methods = description.authentication
      .map((m) => `<li>${m.method}${m.https_only ? ' (HTTPS only)' : ''}</li>`)
      .join('');
    res.type('html').send(`<!DOCTYPE HTML>
<html><head><meta charset="utf-8"><title>${description.title}</title></head>
<body><h1>${description.title}</h1>
<h2>Authentication</h2><ul>${methods}</ul>
<h2>Submission format</h2><p>Send <code>{"values": {...}}</code> with child records under <code>occurrences</code>, <code>samples</code> and <code>media</code>; custom attributes as <code>smpAttr:&lt;id&gt;</code> and <code>occAttr:&lt;id&gt;</code>.</p>
<h2>Resources</h2><table><tr><th>Method</th><th>Example</th><th>Help</th></tr>
${rows}
</table></body></html>`);
  });
  return router;
}
