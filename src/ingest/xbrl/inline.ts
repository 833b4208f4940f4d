// Reading the facts of an inline XBRL document (an EDGAR filing's HTML): its contexts (period and any
// dimension member) and its tagged facts. Amounts tagged twice (a table and its summary) are one fact.

export interface Context {
  start: string | null;
  end: string;
  /** The member of an explicit dimension (one person of several, say), or null. */
  member: string | null;
}

export interface InlineFact {
  name: string;
  context: string;
  /** The number (scale and sign applied) of a nonFraction; the text of a nonNumeric. */
  value: number | string;
}

const CONTEXT = /<xbrli:context\b[^>]*\bid="([^"]+)"[^>]*>([\s\S]*?)<\/xbrli:context>/g;
const OPEN = /<ix:(nonFraction|nonNumeric)\b([^>]*)>/g;
const NON_NUMERIC = /<(\/?)ix:nonNumeric\b[^>]*>/g;

const attribute = (attributes: string, name: string) =>
  new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1] ?? null;

/** HTML's character references read: numeric ones and the few named ones filings use. */
export function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Markup removed, entities read, white space collapsed. */
export function plainText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

export function contexts(html: string): Map<string, Context> {
  const out = new Map<string, Context>();
  for (const [, id, body] of html.matchAll(CONTEXT)) {
    const text = body as string;
    const end = /<xbrli:(?:endDate|instant)>\s*([0-9-]{10})/.exec(text)?.[1];
    if (!end) continue;
    out.set(id as string, {
      start: /<xbrli:startDate>\s*([0-9-]{10})/.exec(text)?.[1] ?? null,
      end,
      member: /<xbrldi:explicitMember\b[^>]*>\s*([^<\s]+)/.exec(text)?.[1] ?? null,
    });
  }
  return out;
}

/** Every fact once (the first of those with the same name, context and value), nested ones included. */
export function facts(html: string): InlineFact[] {
  const seen = new Set<string>();
  const out: InlineFact[] = [];
  for (const open of html.matchAll(OPEN)) {
    const [tag, kind, attributes] = open;
    const inner = html.slice(open.index + tag.length, closing(html, kind as string, open.index + tag.length));
    const name = attribute(attributes as string, 'name');
    const context = attribute(attributes as string, 'contextRef');
    if (!name || !context) continue;
    let value: number | string = plainText(inner);
    if (kind === 'nonFraction') {
      const digits = Number(value.replace(/[^0-9.]/g, ''));
      if (!Number.isFinite(digits) || value === '') continue;
      const scale = Number(attribute(attributes as string, 'scale') ?? 0);
      const sign = attribute(attributes as string, 'sign') === '-' ? -1 : 1;
      value = sign * digits * 10 ** scale;
    }
    const key = `${name}|${context}|${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name, context, value });
  }
  return out;
}

/** Where a fact's content ends: a text block (nonNumeric) may hold other facts, nonNumeric ones included. */
function closing(html: string, kind: string, from: number): number {
  if (kind === 'nonFraction') {
    const end = html.indexOf('</ix:nonFraction>', from);
    return end < 0 ? html.length : end;
  }
  NON_NUMERIC.lastIndex = from;
  let depth = 1;
  for (let m = NON_NUMERIC.exec(html); m; m = NON_NUMERIC.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return m.index;
  }
  return html.length;
}
