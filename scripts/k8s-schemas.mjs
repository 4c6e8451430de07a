#!/usr/bin/env node
// Generates strict, standalone JSON schemas for kubeconform from the Kubernetes
// OpenAPI v2 document (api/openapi-spec/swagger.json in the Go module
// k8s.io/kubernetes), plus, optionally, schemas for CRD kinds derived from the
// TypeScript declarations (.d.ts) of a @kubernetes-models/* npm package.
//
// Plain JavaScript, Node 20+, no dependencies. Called by scripts/k8s-tools.sh.
//
// Usage:
//   node scripts/k8s-schemas.mjs --swagger <swagger.json> --out <dir>
//        [--crd-dts <pkg>/monitoring.coreos.com/v1 --crd-group monitoring.coreos.com
//         --crd-version v1 --crd-kinds ServiceMonitor,PodMonitor,PrometheusRule]
//
// File names follow kubeconform's
//   -schema-location '<dir>/{{ .ResourceKind }}{{ .KindSuffix }}.json'
// convention (pkg/registry/registry.go: ResourceKind is the lower-cased kind,
// KindSuffix is "-<first label of the group>-<version>", or "-<version>" for the
// core group), e.g. deployment-apps-v1.json, service-v1.json,
// horizontalpodautoscaler-autoscaling-v2.json, servicemonitor-monitoring-v1.json.
//
// What "strict standalone" means here:
//   * every $ref is inlined; only recursive types (e.g. JSONSchemaProps) are kept
//     as local "#/definitions/..." references inside the same file;
//   * additionalProperties: false wherever properties are listed (objects that
//     only have additionalProperties, such as labels maps, stay maps);
//   * IntOrString -> string|integer, Quantity -> string|number (not objects);
//   * optional fields (not in their parent's "required") and map values accept null;
//   * apiVersion and kind are pinned with an enum to the file's group/version/kind.
import { readFileSync, writeFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const started = Date.now();

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument: ${a}`);
    const key = a.slice(2);
    const val = argv[i + 1];
    if (val === undefined || val.startsWith("--")) throw new Error(`missing value for ${a}`);
    args[key] = val;
    i++;
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
if (!args.swagger || !args.out) {
  console.error("usage: k8s-schemas.mjs --swagger <swagger.json> --out <dir> [--crd-dts <dir> --crd-group <g> --crd-version <v> --crd-kinds A,B]");
  process.exit(2);
}

const INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
const QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";

const swagger = JSON.parse(readFileSync(args.swagger, "utf8"));
/** @type {Record<string, any>} */
const defs = { ...swagger.definitions };

// ---------------------------------------------------------------------------
// CRD kinds from @kubernetes-models .d.ts files (optional)
// ---------------------------------------------------------------------------

/** Index swagger definition names by the PascalCase form @kubernetes-models uses. */
function k8sNameIndex() {
  const idx = new Map();
  for (const name of Object.keys(defs)) {
    const pascal = name
      .split(/[.\-_]/)
      .map((p) => (p ? p[0].toUpperCase() + p.slice(1) : ""))
      .join("");
    idx.set(pascal, name);
  }
  return idx;
}

function tokenize(src) {
  const toks = [];
  const re = /\s+|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*)|([{}\[\]<>|;:?,()=&.])/gy;
  let m;
  re.lastIndex = 0;
  while (re.lastIndex < src.length) {
    const at = re.lastIndex;
    m = re.exec(src);
    if (!m) throw new Error(`cannot tokenize .d.ts near: ${src.slice(at, at + 60)}`);
    if (m[1] !== undefined) toks.push({ t: "str", v: JSON.parse(`"${m[1]}"`) });
    else if (m[2] !== undefined) toks.push({ t: "str", v: m[2] });
    else if (m[3] !== undefined) toks.push({ t: "num", v: Number(m[3]) });
    else if (m[4] !== undefined) toks.push({ t: "id", v: m[4] });
    else if (m[5] !== undefined) toks.push({ t: "p", v: m[5] });
  }
  return toks;
}

class TypeParser {
  constructor(toks) {
    this.toks = toks;
    this.i = 0;
  }
  peek(o = 0) {
    return this.toks[this.i + o];
  }
  next() {
    return this.toks[this.i++];
  }
  isP(v, o = 0) {
    const t = this.peek(o);
    return t && t.t === "p" && t.v === v;
  }
  expectP(v) {
    const t = this.next();
    if (!t || t.t !== "p" || t.v !== v) throw new Error(`expected '${v}', got ${JSON.stringify(t)}`);
  }
  // type := union ; union := postfix ('|' postfix)*
  type() {
    if (this.isP("|")) this.next();
    const alts = [this.postfix()];
    while (this.isP("|")) {
      this.next();
      alts.push(this.postfix());
    }
    return alts.length === 1 ? alts[0] : { k: "union", alts };
  }
  postfix() {
    let t = this.primary();
    while (this.isP("[") && this.isP("]", 1)) {
      this.next();
      this.next();
      t = { k: "array", of: t };
    }
    return t;
  }
  primary() {
    const t = this.next();
    if (!t) throw new Error("unexpected end of type");
    if (t.t === "str") return { k: "lit", v: t.v };
    if (t.t === "num") return { k: "lit", v: t.v };
    if (t.t === "p" && t.v === "(") {
      const inner = this.type();
      this.expectP(")");
      return inner;
    }
    if (t.t === "p" && t.v === "{") return this.objectBody();
    if (t.t === "id") {
      if (t.v === "true" || t.v === "false") return { k: "lit", v: t.v === "true" };
      const targs = [];
      if (this.isP("<")) {
        this.next();
        targs.push(this.type());
        while (this.isP(",")) {
          this.next();
          targs.push(this.type());
        }
        this.expectP(">");
      }
      return { k: "name", name: t.v, targs };
    }
    throw new Error(`unexpected token in type: ${JSON.stringify(t)}`);
  }
  // after '{': members until '}'
  objectBody() {
    const props = [];
    let index = null;
    while (!this.isP("}")) {
      const t = this.peek();
      if (!t) throw new Error("unterminated object type");
      if (t.t === "p" && (t.v === ";" || t.v === ",")) {
        this.next();
        continue;
      }
      if (t.t === "p" && t.v === "[") {
        // [key: string]: T
        this.next();
        this.next(); // key name
        this.expectP(":");
        this.type();
        this.expectP("]");
        this.expectP(":");
        index = this.type();
        continue;
      }
      if (t.t === "id" && (t.v === "readonly")) {
        this.next();
        continue;
      }
      const nameTok = this.next();
      if (nameTok.t !== "str" && nameTok.t !== "id") throw new Error(`bad member name ${JSON.stringify(nameTok)}`);
      let optional = false;
      if (this.isP("?")) {
        this.next();
        optional = true;
      }
      this.expectP(":");
      props.push({ name: nameTok.v, optional, type: this.type() });
    }
    this.expectP("}");
    return { k: "object", props, index };
  }
}

function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** Find the '{...}' block starting at text[open] === '{'; returns index after the matching '}'. */
function matchBrace(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const q = c;
      for (i++; i < text.length && text[i] !== q; i++) if (text[i] === "\\") i++;
    } else if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error("unbalanced braces");
}

/**
 * Parse every .d.ts in dir. Returns the named types: interfaces (with their
 * "extends" list) and type aliases, plus a map from the long exported alias
 * names (IComGithub...ServiceMonitorSpec) to the local names (IServiceMonitorSpec).
 */
function parseDtsDir(dir) {
  const types = new Map();
  const alias = new Map();
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".d.ts")).sort()) {
    const text = stripComments(readFileSync(join(dir, f), "utf8"));
    for (const m of text.matchAll(/export type \{([^}]*)\}/g)) {
      for (const part of m[1].split(",")) {
        const mm = part.trim().match(/^(\w+)\s+as\s+(\w+)$/);
        if (mm) alias.set(mm[2], mm[1]);
      }
    }
    for (const m of text.matchAll(/export type (\w+)\s*=\s*([^;]+);/g)) {
      const p = new TypeParser(tokenize(m[2]));
      types.set(m[1], { k: "alias", type: p.type() });
    }
    for (const m of text.matchAll(/export interface (\w+)(?:\s+extends\s+([^{]+))?\s*\{/g)) {
      const open = m.index + m[0].length - 1;
      const end = matchBrace(text, open);
      const p = new TypeParser(tokenize(text.slice(open + 1, end - 1) + "}"));
      const body = p.objectBody();
      const ext = (m[2] || "")
        .split(",")
        .map((s) => s.trim().replace(/<.*$/, ""))
        .filter(Boolean);
      types.set(m[1], { k: "interface", ext, body });
    }
  }
  return { types, alias };
}

/**
 * Convert the .d.ts types reachable from the requested kinds into swagger-style
 * definitions (named "crd.<LocalName>") and add them to defs.
 */
function addCrdDefinitions(dir, group, version, kinds) {
  const { types, alias } = parseDtsDir(dir);
  const k8sIdx = k8sNameIndex();
  const IGNORED_BASES = new Set(["TypeMeta", "Model", "ModelData"]);
  const pending = [];
  const done = new Set();
  const unresolved = new Set();

  const resolveName = (name) => {
    const local = alias.get(name) || name;
    if (types.has(local)) {
      const t = types.get(local);
      // Collapse trivial aliases (type X = IX) onto their target.
      if (t.k === "alias" && t.type.k === "name" && t.type.targs.length === 0 && types.has(alias.get(t.type.name) || t.type.name)) {
        return resolveName(t.type.name);
      }
      return { local };
    }
    if (name.startsWith("I") && k8sIdx.has(name.slice(1))) return { k8s: k8sIdx.get(name.slice(1)) };
    return null;
  };

  const refTo = (local) => {
    if (!done.has(local)) {
      done.add(local);
      pending.push(local);
    }
    return { $ref: `#/definitions/crd.${local}` };
  };

  const conv = (t) => {
    switch (t.k) {
      case "lit":
        return { type: typeof t.v === "boolean" ? "boolean" : typeof t.v === "number" ? "number" : "string", enum: [t.v] };
      case "array":
        return { type: "array", items: conv(t.of) };
      case "object": {
        const out = { type: "object" };
        if (t.props.length) {
          out.properties = {};
          const req = [];
          for (const p of t.props) {
            out.properties[p.name] = conv(p.type);
            if (!p.optional) req.push(p.name);
          }
          if (req.length) out.required = req;
        }
        if (t.index) out.additionalProperties = conv(t.index);
        return out;
      }
      case "union": {
        const lits = t.alts.filter((a) => a.k === "lit");
        if (lits.length === t.alts.length && lits.every((l) => typeof l.v === "string")) {
          return { type: "string", enum: lits.map((l) => l.v) };
        }
        const nonNull = t.alts.filter((a) => !(a.k === "name" && (a.name === "null" || a.name === "undefined")));
        if (nonNull.length === 1) return conv(nonNull[0]);
        return { anyOf: nonNull.map(conv) };
      }
      case "name": {
        switch (t.name) {
          case "string":
            return { type: "string" };
          case "number":
            return { type: "number" };
          case "boolean":
            return { type: "boolean" };
          case "any":
          case "unknown":
          case "object":
            return {};
          case "Array":
            return { type: "array", items: conv(t.targs[0]) };
          case "Record":
            return { type: "object", additionalProperties: conv(t.targs[1]) };
        }
        const r = resolveName(t.name);
        if (!r) {
          unresolved.add(t.name);
          return {};
        }
        if (r.k8s) return { $ref: `#/definitions/${r.k8s}` };
        return refTo(r.local);
      }
    }
    throw new Error(`unknown type node ${JSON.stringify(t)}`);
  };

  const interfaceSchema = (local, seen = new Set()) => {
    if (seen.has(local)) return { props: [], index: null };
    seen.add(local);
    const t = types.get(local);
    let props = [];
    let index = null;
    for (const base of t.ext) {
      if (IGNORED_BASES.has(base)) continue;
      const r = resolveName(base);
      if (!r || !r.local || types.get(r.local).k !== "interface") {
        unresolved.add(base);
        continue;
      }
      const b = interfaceSchema(r.local, seen);
      props = props.filter((p) => !b.props.some((q) => q.name === p.name)).concat(b.props);
      index = b.index || index;
    }
    for (const p of t.body.props) {
      props = props.filter((q) => q.name !== p.name);
      props.push(p);
    }
    return { props, index: t.body.index || index };
  };

  const roots = [];
  for (const kind of kinds) {
    const local = `I${kind}`;
    if (!types.has(local)) throw new Error(`kind ${kind}: no interface ${local} in ${dir}`);
    roots.push({ kind, local });
    refTo(local);
  }
  while (pending.length) {
    const local = pending.shift();
    const t = types.get(local);
    let schema;
    if (t.k === "alias") schema = conv(t.type);
    else {
      const { props, index } = interfaceSchema(local);
      schema = conv({ k: "object", props, index });
    }
    defs[`crd.${local}`] = schema;
  }
  for (const { kind, local } of roots) {
    defs[`crd.${local}`]["x-kubernetes-group-version-kind"] = [{ group, version, kind }];
  }
  if (unresolved.size) {
    console.error(`k8s-schemas: warning: unresolved .d.ts types (accepted as any value): ${[...unresolved].join(", ")}`);
  }
  return roots.length;
}

let crdCount = 0;
if (args["crd-dts"]) {
  if (!args["crd-group"] || !args["crd-version"] || !args["crd-kinds"]) {
    throw new Error("--crd-dts needs --crd-group, --crd-version and --crd-kinds");
  }
  crdCount = addCrdDefinitions(
    args["crd-dts"],
    args["crd-group"],
    args["crd-version"],
    args["crd-kinds"].split(",").map((s) => s.trim()).filter(Boolean),
  );
}

// ---------------------------------------------------------------------------
// Expansion: inline $refs, strictness, nullability
// ---------------------------------------------------------------------------

const DROP_KEYS = new Set(["$ref", "properties", "items", "additionalProperties", "allOf", "anyOf", "oneOf", "not", "required", "type", "format"]);

function withNull(schema) {
  if (Array.isArray(schema.type)) {
    if (!schema.type.includes("null")) schema.type = [...schema.type, "null"];
    return schema;
  }
  if (typeof schema.type === "string") {
    schema.type = schema.type === "null" ? "null" : [schema.type, "null"];
    if (schema.enum && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    return schema;
  }
  if (Object.keys(schema).filter((k) => k !== "description").length === 0) return schema; // any value
  if (schema.anyOf) {
    schema.anyOf = [...schema.anyOf, { type: "null" }];
    return schema;
  }
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * @param {any} s            schema node (swagger flavour)
 * @param {string[]} stack   definition names being expanded (cycle detection)
 * @param {boolean} nullable whether null is an acceptable value here
 * @param {Set<string>} cyclic collects definitions that must live in "definitions"
 */
function expand(s, stack, nullable, cyclic) {
  if (s === true || s === false) return s;
  if (!s || typeof s !== "object") return s;
  if (s.$ref) {
    const name = s.$ref.replace(/^#\/definitions\//, "");
    const description = s.description;
    let out;
    if (name === INT_OR_STRING) {
      out = { anyOf: [{ type: "string" }, { type: "integer" }] };
    } else if (name === QUANTITY) {
      out = { anyOf: [{ type: "string" }, { type: "number" }] };
    } else if (stack.includes(name)) {
      cyclic.add(name);
      out = { $ref: `#/definitions/${name}` };
      return nullable ? { anyOf: [out, { type: "null" }] } : out;
    } else {
      const target = defs[name];
      if (!target) throw new Error(`unknown $ref ${s.$ref}`);
      out = expand(target, [...stack, name], false, cyclic);
      if (description && !out.description) out = { description, ...out };
    }
    return nullable ? withNull(out) : out;
  }
  if (s.format === "int-or-string") {
    const out = { anyOf: [{ type: "string" }, { type: "integer" }] };
    if (s.description) out.description = s.description;
    return nullable ? withNull(out) : out;
  }
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith("x-")) continue;
    if (DROP_KEYS.has(k)) continue;
    out[k] = v;
  }
  if (s.type !== undefined) out.type = s.type;
  if (s.format !== undefined && s.format !== "int32" && s.format !== "int64" && s.format !== "double" && s.format !== "byte") {
    out.format = s.format;
  }
  if (s.properties) {
    const req = new Set(s.required || []);
    out.properties = {};
    for (const [name, ps] of Object.entries(s.properties)) {
      out.properties[name] = expand(ps, stack, !req.has(name), cyclic);
    }
    if (s.required && s.required.length) out.required = [...s.required];
    if (s.additionalProperties === undefined) out.additionalProperties = false;
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties =
      typeof s.additionalProperties === "object" ? expand(s.additionalProperties, stack, true, cyclic) : s.additionalProperties;
  }
  if (s.items) out.items = Array.isArray(s.items) ? s.items.map((i) => expand(i, stack, false, cyclic)) : expand(s.items, stack, false, cyclic);
  for (const k of ["allOf", "anyOf", "oneOf"]) {
    if (Array.isArray(s[k])) out[k] = s[k].map((x) => expand(x, stack, false, cyclic));
  }
  if (s.not) out.not = expand(s.not, stack, false, cyclic);
  if (s.properties && out.type === undefined) out.type = "object";
  return nullable ? withNull(out) : out;
}

/** Build one standalone schema for definition `name` and the given GVK. */
function buildSchema(name, gvk) {
  const cyclic = new Set();
  const root = expand(defs[name], [name], false, cyclic);
  const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
  if (root.properties) {
    if (root.properties.apiVersion) root.properties.apiVersion = { type: "string", enum: [apiVersion] };
    if (root.properties.kind) root.properties.kind = { type: "string", enum: [gvk.kind] };
  }
  if (cyclic.size) {
    const definitions = {};
    const todo = [...cyclic];
    while (todo.length) {
      const d = todo.shift();
      if (definitions[d]) continue;
      const c2 = new Set();
      definitions[d] = expand(defs[d], [d], false, c2);
      for (const x of c2) if (!definitions[x] && !todo.includes(x)) todo.push(x);
    }
    root.definitions = definitions;
  }
  return root;
}

function fileName(gvk) {
  // Mirrors kubeconform pkg/registry/registry.go schemaPath().
  const suffix = gvk.group ? `-${gvk.group.split(".")[0].toLowerCase()}-${gvk.version.toLowerCase()}` : `-${gvk.version.toLowerCase()}`;
  return `${gvk.kind.toLowerCase()}${suffix}.json`;
}

mkdirSync(args.out, { recursive: true });
const written = new Map();
let bytes = 0;
for (const [name, def] of Object.entries(defs)) {
  const gvks = def["x-kubernetes-group-version-kind"];
  if (!Array.isArray(gvks)) continue;
  for (const gvk of gvks) {
    const file = fileName(gvk);
    if (written.has(file)) {
      // Two API groups sharing a first label would collide in kubeconform's naming.
      // Prefer the Kubernetes-owned group; report the clash.
      console.error(`k8s-schemas: warning: ${file} wanted by ${written.get(file)} and ${name}; keeping the first`);
      continue;
    }
    const json = JSON.stringify(buildSchema(name, gvk));
    writeFileSync(join(args.out, file), json + "\n");
    bytes += json.length + 1;
    written.set(file, name);
  }
}

const crdFiles = [...written].filter(([, n]) => n.startsWith("crd.")).map(([f]) => f);
console.log(
  `k8s-schemas: wrote ${written.size} schemas (${crdFiles.length} CRD: ${crdFiles.join(", ") || "none"}), ` +
    `${(bytes / 1e6).toFixed(1)} MB, to ${args.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
