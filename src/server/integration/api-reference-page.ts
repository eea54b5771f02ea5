import type { OpenApiDocument, OpenApiOperation } from './openapi-document';

/*
 * The API's reference as one HTML page rendered on the server from the OpenAPI document: no
 * script at all, one inline style sheet the Content-Security-Policy allows, readable on a phone.
 */

type JsonSchema = Record<string, unknown>;

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

/** Inline code spans of the descriptions (`like this`), the only markup they use. */
const prose = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_match, code: string) => `<code>${code}</code>`);

const slug = (text: string) => text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
const operationAnchor = (operationId: string) => `op-${slug(operationId)}`;
const schemaAnchor = (name: string) => `schema-${slug(name)}`;

const COMPONENT_PREFIX = '#/components/schemas/';

/** A table may be wider than a phone: it scrolls in its own box, which a keyboard can reach. */
const scrollRegion = (name: string) =>
  `role="region" aria-label="${escapeHtml(name)}" tabindex="0"`;

/** A schema as a short type: a link for a component, `array of …`, `string or null`. */
function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX)) {
    const name = ref.slice(COMPONENT_PREFIX.length);
    return `<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
  }
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(choices)) return choices.map(typeOf).join(' or ');
  if (Array.isArray(schema.enum))
    return `one of ${(schema.enum as unknown[]).map((value) => `<code>${escapeHtml(JSON.stringify(value))}</code>`).join(', ')}`;
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (schema.type === 'array') return `array of ${typeOf(schema.items as JsonSchema | undefined)}`;
  if (Array.isArray(schema.type))
    return (schema.type as string[]).map((type) => escapeHtml(type)).join(' or ');
  const format = typeof schema.format === 'string' ? ` (${escapeHtml(schema.format)})` : '';
  return `${escapeHtml(String(schema.type ?? 'any'))}${format}`;
}

function propertiesTable(schema: JsonSchema, caption: string): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows = Object.entries(properties).map(
    ([name, property]) =>
      `<tr><th scope="row"><code>${escapeHtml(name)}</code>${required.has(name) ? '' : ' <span class="optional">optional</span>'}</th><td>${typeOf(property)}</td><td>${prose(String(property.description ?? ''))}</td></tr>`,
  );
  if (rows.length === 0) return `<p>${typeOf(schema)}</p>`;
  return `<div class="table" ${scrollRegion(caption)}><table><caption>${escapeHtml(caption)}</caption><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function curlExample(method: string, path: string, operation: OpenApiOperation): string {
  const url = `https://portal.example.edu/api/v1${path.replace(/\{([^}]+)\}/g, (_m, name: string) => `<${name}>`)}`;
  const lines = [`curl -X ${method.toUpperCase()} '${url}'`];
  if ((operation.security ?? []).length > 0) lines.push(`  -H 'Authorization: Bearer <token>'`);
  const media = Object.keys(operation.requestBody?.content ?? {})[0];
  if (media === 'application/x-www-form-urlencoded')
    lines.push(
      `  -u '<client id>:<client secret>'`,
      `  -d grant_type=client_credentials -d 'scope=applications:read'`,
    );
  else if (media) {
    const schema = operation.requestBody?.content[media]?.schema as JsonSchema;
    lines.push(`  -H 'Content-Type: ${media}'`, `  -d '${exampleBody(schema)}'`);
  }
  return `<pre><code>${escapeHtml(lines.join(' \\\n'))}</code></pre>`;
}

const EXAMPLE_VALUES: Record<string, unknown> = { sis_id: 'A00123456', state: 'received' };

function exampleBody(schema: JsonSchema | undefined): string {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  return JSON.stringify(
    Object.fromEntries(Object.keys(properties).map((name) => [name, EXAMPLE_VALUES[name] ?? '…'])),
  );
}

function resolve(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  const ref = schema?.$ref;
  if (typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX))
    return document.components.schemas[ref.slice(COMPONENT_PREFIX.length)] ?? {};
  return schema ?? {};
}

function operationSection(
  document: OpenApiDocument,
  method: string,
  path: string,
  operation: OpenApiOperation,
): string {
  const scopes = (operation.security ?? []).flatMap((requirement) =>
    Object.values(requirement).flat(),
  );
  const parameters = operation.parameters ?? [];
  const parameterRows = parameters.map(
    (parameter) =>
      `<tr><th scope="row"><code>${escapeHtml(parameter.name)}</code>${parameter.required ? '' : ' <span class="optional">optional</span>'}</th><td>${escapeHtml(parameter.in)}</td><td>${typeOf(parameter.schema)}</td><td>${prose(parameter.description ?? '')}</td></tr>`,
  );
  const bodyMedia = Object.keys(operation.requestBody?.content ?? {})[0];
  const bodySchema = bodyMedia
    ? (operation.requestBody?.content[bodyMedia]?.schema as JsonSchema)
    : undefined;
  const responseRows = Object.entries(operation.responses).map(([status, response]) => {
    const contents = Object.entries(response.content ?? {});
    const media = contents.map(([type]) => `<code class="nowrap">${escapeHtml(type)}</code>`);
    const bodies = contents.map(([, content]) => typeOf(content.schema as JsonSchema));
    return `<tr><th scope="row">${escapeHtml(status)}</th><td>${prose(response.description)}</td><td>${media.join('<br>')}</td><td>${bodies.join('<br>')}</td></tr>`;
  });
  return `<section class="operation" aria-labelledby="${operationAnchor(operation.operationId)}">
<h3 id="${operationAnchor(operation.operationId)}"><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>
<p class="summary">${prose(operation.summary)}</p>
${operation.description ? `<p>${prose(operation.description)}</p>` : ''}
<p class="meta">Operation <code>${escapeHtml(operation.operationId)}</code>. ${scopes.length > 0 ? `Scope: ${scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(', ')}.` : 'No token needed.'}</p>
${parameterRows.length > 0 ? `<div class="table" ${scrollRegion(`${operation.operationId} parameters`)}><table><caption>Parameters</caption><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>${parameterRows.join('')}</tbody></table></div>` : ''}
${bodySchema ? `<h4>Request body (<code>${escapeHtml(bodyMedia ?? '')}</code>)</h4>${propertiesTable(resolve(document, bodySchema), `${operation.operationId} request body`)}` : ''}
<div class="table" ${scrollRegion(`${operation.operationId} responses`)}><table><caption>Responses</caption><thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Media type</th><th scope="col">Body</th></tr></thead><tbody>${responseRows.join('')}</tbody></table></div>
<h4>Example</h4>
${curlExample(method, path, operation)}
</section>`;
}

const STYLE = `
:root{color-scheme:light;--ink:#1b1f24;--muted:#4a5360;--line:#d5dae1;--tint:#f3f5f8;--accent:#0b4f9c}
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
a{color:var(--accent)}
a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:.5rem 1rem}
.skip:focus{left:1rem;z-index:1}
header,nav,main,footer{max-width:72rem;margin:0 auto;padding:1rem}
header{border-bottom:1px solid var(--line)}
h1{font-size:1.6rem;margin:.5rem 0}
h2{font-size:1.35rem;margin:2rem 0 .75rem;border-bottom:2px solid var(--line);padding-bottom:.25rem}
h3{font-size:1.1rem;margin:0 0 .5rem;overflow-wrap:anywhere}
h4{font-size:1rem;margin:1rem 0 .25rem}
nav ul{padding-left:1.25rem}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
code{overflow-wrap:anywhere}
pre{background:var(--tint);border:1px solid var(--line);padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere}
.operation{border:1px solid var(--line);border-radius:6px;padding:1rem;margin:1rem 0}
.method{display:inline-block;min-width:3.5rem;text-align:center;border-radius:4px;padding:0 .4rem;color:#fff;background:#44505c;font-size:.85rem}
.method-get{background:#0b5e2e}.method-put{background:#7a4100}.method-post{background:#0b4f9c}.method-delete{background:#9b1c1c}
.summary{font-weight:600}
.meta,.optional{color:var(--muted)}
.optional{font-size:.8rem;font-weight:400}
.table{overflow-x:auto}
.table:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
thead th{background:var(--tint)}
.nowrap{white-space:nowrap}
@media (max-width:40rem){
header,nav,main,footer{padding:.75rem}
.operation{padding:.75rem .5rem;border-left:0;border-right:0;border-radius:0}
th,td{padding:.3rem .35rem}
}
`;

/** The whole page: the introduction, authentication, each operation by tag, each schema. */
export function apiReferencePage(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  const toc = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags[0] ?? 'Operations';
      byTag.set(tag, [
        ...(byTag.get(tag) ?? []),
        operationSection(document, method, path, operation),
      ]);
      toc.set(tag, [
        ...(toc.get(tag) ?? []),
        `<li><a href="#${operationAnchor(operation.operationId)}">${escapeHtml(operation.summary)}</a></li>`,
      ]);
    }
  }
  const oauth = document.components.securitySchemes.oauth2 as {
    flows: { clientCredentials: { tokenUrl: string; scopes: Record<string, string> } };
  };
  const scopeRows = Object.entries(oauth.flows.clientCredentials.scopes).map(
    ([scope, description]) =>
      `<tr><th scope="row"><code>${escapeHtml(scope)}</code></th><td>${escapeHtml(description)}</td></tr>`,
  );
  const schemaSections = Object.entries(document.components.schemas).map(
    ([name, schema]) =>
      `<section aria-labelledby="${schemaAnchor(name)}"><h3 id="${schemaAnchor(name)}">${escapeHtml(name)}</h3>${schema.description ? `<p>${prose(String(schema.description))}</p>` : ''}${propertiesTable(schema, `${name} fields`)}</section>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(document.info.title)}: reference</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the reference</a>
<header>
<h1>${escapeHtml(document.info.title)}</h1>
<p>Version ${escapeHtml(document.info.version)}, OpenAPI ${escapeHtml(document.openapi)}. The machine-readable document: <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a>.</p>
</header>
<nav aria-label="Contents">
<h2 id="contents">Contents</h2>
<ul><li><a href="#authentication">Authentication and scopes</a></li>${[...toc.entries()].map(([tag, links]) => `<li><a href="#tag-${slug(tag)}">${escapeHtml(tag)}</a><ul>${links.join('')}</ul></li>`).join('')}<li><a href="#schemas">Schemas</a></li></ul>
</nav>
<main id="main" tabindex="-1">
<p>${prose(document.info.description)}</p>
<section aria-labelledby="authentication">
<h2 id="authentication">Authentication and scopes</h2>
<p>Ask for a token at <code>${escapeHtml(oauth.flows.clientCredentials.tokenUrl)}</code> with the client credentials grant, then send it as <code>Authorization: Bearer &lt;token&gt;</code>. A token lives an hour and carries some or all of its client’s scopes. Each client has its own rate limit; past it, calls get 429.</p>
<div class="table" ${scrollRegion('Scopes')}><table><caption>Scopes</caption><thead><tr><th scope="col">Scope</th><th scope="col">What it allows</th></tr></thead><tbody>${scopeRows.join('')}</tbody></table></div>
<p>Errors are problem details (<code>application/problem+json</code>, RFC 9457): <code>detail</code> says what to fix and <code>errors</code> names each field or parameter at fault. Feeds page with an opaque <code>next_cursor</code>; a cursor the server did not issue is refused with 400.</p>
</section>
${[...byTag.entries()].map(([tag, sections]) => `<section aria-labelledby="tag-${slug(tag)}"><h2 id="tag-${slug(tag)}">${escapeHtml(tag)}</h2>${sections.join('\n')}</section>`).join('\n')}
<section aria-labelledby="schemas">
<h2 id="schemas">Schemas</h2>
${schemaSections.join('\n')}
</section>
</main>
<footer><p><a href="#contents">Back to the contents</a></p></footer>
</body>
</html>
`;
}
