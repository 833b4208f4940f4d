// The listing's `query` found in memory: every word in an award's title, recipient or agency.
import { describe, expect, it } from 'vitest';
import { type AwardColumns, emptyDictionaries } from '../../../src/datasets/awards/columns.js';
import { awardsMatching } from '../../../src/datasets/awards/query.js';
import { TitleWordsBuilder, words } from '../../../src/datasets/awards/words.js';

interface Award {
  title: string;
  recipient: string;
  agency: string;
}

/** Columns holding only what the word index reads. */
async function columnsOf(awards: Award[], slice?: number): Promise<AwardColumns> {
  const dict = emptyDictionaries();
  const titles = new TitleWordsBuilder();
  for (const [i, a] of awards.entries()) titles.add(i, a.title);
  return {
    size: awards.length,
    agency: Int32Array.from(awards, (a) => dict.agency.code(a.agency)),
    recipient: Int32Array.from(awards, (a) => dict.recipient.code(a.recipient)),
    titleWords: await titles.build(slice),
    dict,
  } as unknown as AwardColumns;
}

// Titles, recipients and agencies as the shared USAspending and TED files write them.
const AWARDS: Award[] = [
  {
    title: 'IGF::OT::IGF LINCOLN LABORATORY FFRDC RESEARCH',
    recipient: 'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
    agency: 'Department of Defense',
  },
  {
    title: 'SPACE FLIGHT OPERATIONS SUPPORT',
    recipient: 'LOCKHEED MARTIN CORPORATION',
    agency: 'National Aeronautics and Space Administration',
  },
  { title: 'Servicios de limpieza', recipient: 'Limpiezas Pérez S.L.', agency: 'Ayuntamiento de Málaga' },
  {
    title: 'Lincoln tunnel repairs, laboratory testing',
    recipient: 'ACME',
    agency: 'Department of Transportation',
  },
  { title: 'Dostawa sprzętu laboratoryjnego', recipient: 'Społka Łódź', agency: 'Politechnika Łódzka' },
];

describe('words', () => {
  it('are letters and digits in lower case, accents taken off', () => {
    expect(words('IGF::OT::IGF LINCOLN-LAB, 2021')).toEqual(['igf', 'ot', 'igf', 'lincoln', 'lab', '2021']);
    expect(words('Ayuntamiento de Málaga')).toEqual(['ayuntamiento', 'de', 'malaga']);
    expect(words('Dostawa sprzętu')).toEqual(['dostawa', 'sprzetu']);
    expect(words('  ?! ')).toEqual([]);
  });
});

const cols = await columnsOf(AWARDS);

describe('awardsMatching', () => {
  const match = (query: string) => [...awardsMatching(cols, query)];

  it('needs every word, from the title, the recipient or the agency', () => {
    expect(match('lincoln laboratory')).toEqual([0, 3]);
    expect(match('lincoln laboratory ffrdc')).toEqual([0]);
    // "space" is in one title and one agency's name, "aeronautics" only in that agency's.
    expect(match('space')).toEqual([1]);
    expect(match('aeronautics flight')).toEqual([1]);
    expect(match('massachusetts research')).toEqual([0]);
    expect(match('department')).toEqual([0, 3]);
    expect(match('department lincoln tunnel')).toEqual([3]);
  });

  it('matches words whole, in any case and with or without their accents', () => {
    expect(match('MALAGA')).toEqual([2]);
    expect(match('málaga limpieza')).toEqual([2]);
    expect(match('łódź')).toEqual([4]);
    // A letter of its own (Ł is not L with a mark) stays itself.
    expect(match('ŁODZ')).toEqual([4]);
    expect(match('lodz')).toEqual([]);
    expect(match('labora')).toEqual([]);
    expect(match('lincoln lincoln')).toEqual([0, 3]);
  });

  it('finds nothing for a word held nowhere, or a query without words', () => {
    expect(match('nothingmatchesthis')).toEqual([]);
    expect(match('lincoln nothingmatchesthis')).toEqual([]);
    expect(match('?!')).toEqual([]);
  });
});

describe('packing the title words', () => {
  it('holds the same postings when it gives the loop a turn after every posting', async () => {
    const sliced = await columnsOf(AWARDS, 1);
    const words = ['lincoln', 'laboratory', 'space', 'limpieza', 'lodz', 'research'];
    for (const word of words)
      expect([...awardsMatching(sliced, word)], word).toEqual([...awardsMatching(cols, word)]);
    expect(sliced.titleWords.items).toEqual(cols.titleWords.items);
    expect(sliced.titleWords.offsets).toEqual(cols.titleWords.offsets);
  });
});
