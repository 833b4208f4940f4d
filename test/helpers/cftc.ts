// The CFTC's weekly file of 14 April 2026 and a copy of it with one figure corrected, for the tests of what
// a correction does: WTI's row (open interest 2,094,492) with the non-commercial long 390,468 → 391,468.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { readText, real } from './real-data.js';

export const APRIL_14 = real('cftc/weekly/deafut_2026-04-14.zip');

export interface CorrectedCopy {
  file: string;
  /** WTI's row as the CFTC wrote it. */
  line: string;
  remove(): void;
}

/** Writes the corrected copy into a folder of its own. */
export function correctedWeekly(): CorrectedCopy {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-cftc-'));
  const file = path.join(dir, 'deafut_2026-04-14.txt');
  const original = readText(APRIL_14);
  const line = original.split('\n').find((l) => l.includes(',067651,')) ?? '';
  writeFileSync(file, original.replace(line, line.replace(' 2094492,  390468,', ' 2094492,  391468,')));
  return { file, line, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The rows a table holds, every revision counted. */
export async function rowsOf(db: Kysely<Database>, table: 'cot_records'): Promise<number> {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
