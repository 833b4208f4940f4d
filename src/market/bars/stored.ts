// A listing's daily bars as the store holds them now: its current blocks, oldest year first, unpacked, and the
// files that brought them (each year's block names the file that last changed it).
import type { Kysely } from 'kysely';
import type { Bar, LoadedFile } from '../../kernel/market-provider.js';
import type { Database } from '../../store/schema.js';
import { unpackBars } from './blocks.js';

export async function storedBars(
  db: Kysely<Database>,
  symbol: string,
): Promise<{ bars: Bar[]; files: LoadedFile[] }> {
  const blocks = await db
    .selectFrom('market_bar_blocks')
    .select(['year', 'bars', 'source'])
    .where('symbol', '=', symbol)
    .where('superseded_at', 'is', null)
    .orderBy('year')
    .execute();
  const bars: Bar[] = [];
  const files: LoadedFile[] = [];
  for (const block of blocks) {
    const first = bars.length;
    unpackBars(block.year, block.bars, bars);
    if (bars.length === first) continue;
    const start = bars[first]!.date;
    const end = bars[bars.length - 1]!.date;
    const last = files.at(-1);
    // Years in a row from one file are one span.
    if (last?.file === block.source) last.end = end;
    else files.push({ file: block.source, start, end });
  }
  return { bars, files };
}
