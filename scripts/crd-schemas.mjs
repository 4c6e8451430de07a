#!/usr/bin/env node
// Writes strict kubeconform schemas for the kinds of CustomResourceDefinition
// YAML files (their openAPIV3Schema), e.g. HTTPRoute from the Gateway API's
// config/crd/standard/gateway.networking.k8s.io_httproutes.yaml. Called by
// scripts/k8s-tools.sh. Reads YAML with the `yaml` package the workspace
// already installs (that of libs/rest-config); exits 3 when it is not installed.
//
// Usage: node scripts/crd-schemas.mjs --out <dir> <crd.yaml>...
//
// File names follow kubeconform's '{{ .ResourceKind }}{{ .KindSuffix }}.json'
// (httproute-gateway-v1.json). As in scripts/k8s-schemas.mjs, "strict" means:
// additionalProperties: false wherever properties are listed (unless the CRD
// keeps unknown fields there), optional fields may be null, and apiVersion and
// kind are pinned to the file's group, version and kind.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let YAML;
try {
  YAML = createRequire(join(root, 'libs', 'rest-config', 'package.json'))('yaml');
} catch {
  console.error('crd-schemas: the yaml package is not installed (run npm test or npm start once)');
  process.exit(3);
}

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
if (outAt < 0 || !args[outAt + 1]) {
  console.error('usage: crd-schemas.mjs --out <dir> <crd.yaml>...');
  process.exit(2);
}
const out = args[outAt + 1];
const files = args.filter((_, i) => i !== outAt && i !== outAt + 1);
mkdirSync(out, { recursive: true });

/** The CRD's schema made strict, recursively. */
function strict(schema, required = true) {
  if (!schema || typeof schema !== 'object') return schema;
  const copy = { ...schema };
  if (copy.properties) {
    const needed = new Set(copy.required ?? []);
    copy.properties = Object.fromEntries(Object.entries(copy.properties).map(([name, value]) => [name, strict(value, needed.has(name))]));
    if (copy.additionalProperties === undefined && !copy['x-kubernetes-preserve-unknown-fields']) copy.additionalProperties = false;
  }
  if (copy.additionalProperties && typeof copy.additionalProperties === 'object') copy.additionalProperties = strict(copy.additionalProperties);
  if (copy.items) copy.items = Array.isArray(copy.items) ? copy.items.map((item) => strict(item)) : strict(copy.items);
  for (const key of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(copy[key])) copy[key] = copy[key].map((item) => strict(item));
  if (copy['x-kubernetes-int-or-string']) {
    delete copy.type;
    copy.oneOf = [{ type: 'string' }, { type: 'integer' }];
  }
  if (!required && typeof copy.type === 'string') copy.type = [copy.type, 'null'];
  return copy;
}

let written = 0;
for (const file of files) {
  for (const crd of YAML.parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => doc.toJS())) {
    if (crd?.kind !== 'CustomResourceDefinition') continue;
    const { group, names, versions } = crd.spec;
    for (const version of versions) {
      const schema = version.schema?.openAPIV3Schema;
      if (!version.served || !schema) continue;
      const body = strict(schema);
      body.properties = { ...body.properties, apiVersion: { type: 'string', enum: [`${group}/${version.name}`] }, kind: { type: 'string', enum: [names.kind] } };
      body.required = [...new Set([...(body.required ?? []), 'apiVersion', 'kind'])];
      const name = `${names.kind.toLowerCase()}-${group.split('.')[0]}-${version.name}.json`;
      writeFileSync(join(out, name), JSON.stringify({ $schema: 'http://json-schema.org/schema#', ...body }));
      written += 1;
      console.error(`crd-schemas: ${name}`);
    }
  }
}
if (!written) {
  console.error('crd-schemas: no served version with a schema in the files given');
  process.exit(1);
}
