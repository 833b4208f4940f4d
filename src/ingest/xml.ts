// An agency's XML file, parsed whole: elements by local name (namespace prefixes dropped), attributes as
// "@name", every text kept as written (no number parsing: amounts stay exact). Malformed XML is refused.
import { XMLParser } from 'fast-xml-parser';
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
    return parser.parse(text, true) as XmlNode;
  } catch (error) {
    throw new SourceError(
      source.name,
      null,
      `not well-formed XML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}
