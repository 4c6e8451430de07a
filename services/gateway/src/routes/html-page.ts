/** Text for HTML content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = 'body{font-family:sans-serif;max-width:72em;margin:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em;vertical-align:top;text-align:left}';

/** The start of a page titled `title` (text), for a body written after it. */
export function htmlPageStart(title: string): string {
  return `<!DOCTYPE HTML>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
`;
}

export const HTML_PAGE_END = '\n</body></html>';

/** A whole page: `title` is text, `body` is HTML already escaped. */
export function htmlPage(title: string, body: string): string {
  return `${htmlPageStart(title)}${body}${HTML_PAGE_END}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An http(s) URL is a link; anything else is text. */
function scalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /^https?:\/\//i.test(text) ? `<a href="${escapeHtml(text)}">${escapeHtml(text)}</a>` : escapeHtml(text);
}

/** Keys of a list of objects, in order of first appearance. */
export function keysOf(rows: Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  return [...keys];
}

/**
 * Any JSON value as HTML, every text escaped: an object is a table of its
 * keys and values, a list of objects a table with a row each, another list a
 * bulleted list.
 */
export function htmlValue(value: unknown): string {
  if (Array.isArray(value)) {
    if (value.length && value.every(isObject)) {
      const keys = keysOf(value);
      const head = `<tr>${keys.map((key) => `<th>${escapeHtml(key)}</th>`).join('')}</tr>`;
      const rows = value.map((row) => `<tr>${keys.map((key) => `<td>${htmlValue(row[key])}</td>`).join('')}</tr>`);
      return `<table>\n${head}\n${rows.join('\n')}\n</table>`;
    }
    return `<ul>${value.map((item) => `<li>${htmlValue(item)}</li>`).join('')}</ul>`;
  }
  if (isObject(value)) {
    const rows = Object.entries(value).map(([key, item]) => `<tr><th>${escapeHtml(key)}</th><td>${htmlValue(item)}</td></tr>`);
    return `<table>\n${rows.join('\n')}\n</table>`;
  }
  return scalar(value);
}
