// The people of an Item 5.02 (officers and directors appointed, departing or compensated): each named
// person with the role beside the name, found in the item's own text, which ends at the next item or the
// signature (so the officer who signs the filing is never one of them). The quote is the name and role as
// written, and its offset counts characters of the document's plain text.

export interface Person {
  name: string;
  role: string;
  change: 'appointed' | 'departed' | 'compensation' | 'other';
  quote: string;
  quoteOffset: number;
}

const TOKEN = "(?:[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?|[A-Z]\\.)";
const ROLE_START =
  '(?:President|Chief|Executive Vice President|Senior Vice President|Vice President|Chair(?:man|woman|person)?|Director|General Counsel|Secretary|Treasurer|Controller|Principal)';
const PERSON = new RegExp(
  `\\b(${TOKEN}(?: ${TOKEN}){1,3}?),? (?:(?:as|our|its|the Company[’']s) )?(${ROLE_START}[A-Za-z ,&-]*?)(?=\\s*(?:\\$|\\(|\\.|;|:| and (?:was|is|will|has)\\b| effective\\b| to serve\\b|$))`,
  'g',
);
/** Words that start capitalised in such text but name no one. */
const NOT_A_NAME = new Set(
  'The On In Our Its This Board Committee Company Compensation Plan Fiscal Year Officer Officers Named Executive Target Award Base Opportunity Vice President Chief Director Directors Annual Meeting Corporation Inc Item Form Exhibit Unless Following Variable Performance Goals Salary Achievement'.split(
    ' ',
  ),
);

/** A full stop that ends a sentence: not an initial's ("Colette M. Kress"). */
const isStop = (text: string, i: number) =>
  text[i] === '.' && !/(^|\s)[A-Z]$/.test(text.slice(Math.max(0, i - 2), i));

function sentenceStart(text: string, from: number): number {
  for (let i = from - 1; i >= 0; i -= 1) if (isStop(text, i)) return i + 1;
  return 0;
}

function sentenceEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) if (isStop(text, i)) return i;
  return text.length;
}

function changeOf(sentence: string): Person['change'] {
  const text = sentence.replace(/named executive officers?/gi, '');
  if (/\b(resign|retire|depart|step(?:ped|s)? down|terminat|separat|leav(?:e|ing)|succeeded by)/i.test(text))
    return 'departed';
  if (/\b(appoint|named|elect|promot|hire|join|succeed)/i.test(text)) return 'appointed';
  if (/\b(compensat|salary|bonus|award|incentive|equity|pay\b|payment)/i.test(text)) return 'compensation';
  return 'other';
}

/** The people of the Item 5.02 text in `plain` (the document's plain text), or none without such an item. */
export function itemPeople(plain: string): Person[] {
  const start = plain.search(/\bItem 5\.02\b/i);
  if (start < 0) return [];
  const rest = plain.slice(start + 9);
  const stop = rest.search(/\bItem \d\.\d{2}\b|\bSIGNATURES?\b/);
  const section = plain.slice(start, start + 9 + (stop < 0 ? rest.length : stop));
  // The item's own title names roles ("Appointment of Certain Officers"), not people: read after it.
  const body = section.indexOf('Officers.') + 'Officers.'.length;
  const people: Person[] = [];
  for (const m of section.matchAll(PERSON)) {
    if (m.index < body) continue;
    // A table's column heading can run into the first name ("Base Salary Jen-Hsun Huang"): drop it.
    const tokens = m[1]!.split(' ');
    while (tokens.length && NOT_A_NAME.has(tokens[0]!.replace(/\.$/, ''))) tokens.shift();
    if (tokens.length < 2 || tokens.some((word) => NOT_A_NAME.has(word.replace(/\.$/, '')))) continue;
    const name = tokens.join(' ');
    const skipped = m[1]!.length - name.length;
    if (people.some((p) => p.name === name)) continue;
    const sentence = section.slice(
      sentenceStart(section, m.index),
      sentenceEnd(section, m.index + m[0].length),
    );
    people.push({
      name,
      role: m[2]!.replace(/[ ,]+$/, ''),
      change: changeOf(sentence),
      quote: m[0].slice(skipped),
      quoteOffset: start + m.index + skipped,
    });
  }
  return people;
}
