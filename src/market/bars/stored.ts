// A listing's daily bars as the store holds them now: its current blocks, oldest year first, unpacked.
import type { Kysely } from 'kysely';
import type { Bar } from '../../kernel/market-provider.js';
import type { Database } from '../../store/schema.js';
import { unpackBars } from './blocks.js';

export async function storedBars(db: Kysely<Database>, symbol: string): Promise<Bar[]> {
  const blocks = await db
    .selectFrom('market_bar_blocks')
    .select(['year', 'bars'])
    .where('symbol', '=', symbol)
    .where('superseded_at', 'is', null)
    .orderBy('year')
    .execute();
  const bars: Bar[] = [];
  for (const block of blocks) unpackBars(block.year, block.bars, bars);
  return bars;
}
