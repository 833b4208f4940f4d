// An agency's XML file, parsed whole: elements by local name (namespace prefixes dropped), attributes as
// "@name", every text kept as written (no number parsing: amounts stay exact). Malformed XML is refused.
import { XMLParser } from 'fast-xml-parser';
import { isRecord, recordAt } from '../kernel/validation.js';
import { SourceError, type SourceFile, wholeText } from './source.js';

export type XmlNode = Record<string, unknown>;

/** `lists`: the elements that may repeat, read as arrays even when the file has one. */
export async function readXml(source: SourceFile, lists: ReadonlySet<string>): Promise<XmlNode> {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (name) => lists.has(name),
  });
  const text = await wholeText(source);
  try {
    const parsed: unknown = parser.parse(text, true);
    return isRecord(parsed) ? parsed : {};
  } catch (error) {
    throw new SourceError(
      source.name,
      null,
      `not well-formed XML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

/** The element at `path` below `node`, a child's name a step; undefined where a step is missing or not one element. */
export const element: (node: unknown, ...path: string[]) => XmlNode | undefined = recordAt;

/** The elements named `name` under `node`: a list (see readXml's `lists`), or one alone; none where it is missing. */
export function elements(node: unknown, name: string): XmlNode[] {
  const found = isRecord(node) ? node[name] : undefined;
  if (Array.isArray(found)) return found.filter(isRecord);
  return isRecord(found) ? [found] : [];
}

/** A member of `node` that is text: an attribute ("@name") or its "#text"; undefined where it is not text. */
export function textOf(node: unknown, name: string): string | undefined {
  const value = isRecord(node) ? node[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}
