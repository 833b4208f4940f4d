// Writing award records a batch at a time: one read of the current rows of the batch's awards, one update of
// the rows replaced, inserts of many rows per statement, and their search entries likewise. Outcomes are
// those of writing the records one by one: an award twice in a batch is written in two rounds. A revision is
// known from the source's own date for it (USAspending's Last Modified Date, a notice's publication) or the
// time given for the file, else from its load; one known before the award's current revision is a backfill,
// placed in the award's history without becoming current.
import { hash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { BatchEntry } from '../../ingest/import.js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import { type KnownFrom, placeInHistory, retire, type WriteOutcome } from '../../store/revisions.js';
import type { Database } from '../../store/schema.js';
import { type AwardRow, heldAwards, insertAwardRows } from './bulk-writes.js';
import { amountEchoingId, amountKey, amountMicros, fiscalYear } from './derive.js';
import type { AwardRecordValue } from './record.js';

/** Awards per update of the rows they replace. */
const RETIRE_CHUNK = 500;

/** SHA-1 of a text in hex, in one call (a Hash object per text costs more than the hashing). */
const sha1 = (text: string) => hash('sha1', text, 'hex');

/** The stable id of an award: its source and the source's own id. */
export function awardId(source: string, sourceAwardId: string): string {
  return sha1(`${source}:${sourceAwardId}`);
}

export async function writeAwards(
  tx: Transaction<Database>,
  entries: BatchEntry<AwardRecordValue>[],
  root: Kysely<Database>,
): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = [];
  let round: BatchEntry<AwardRecordValue>[] = [];
  let ids = new Set<string>();
  for (const entry of entries) {
    const id = awardId(entry.record.source, entry.record.sourceAwardId);
    if (ids.has(id)) {
      outcomes.push(...(await writeRound(root, tx, round)));
      round = [];
      ids = new Set();
    }
    ids.add(id);
    round.push(entry);
  }
  outcomes.push(...(await writeRound(root, tx, round)));
  return outcomes;
}

/** A round holds each award once. */
async function writeRound(
  root: Kysely<Database>,
  tx: Transaction<Database>,
  entries: BatchEntry<AwardRecordValue>[],
): Promise<WriteOutcome[]> {
  if (entries.length === 0) return [];
  const ids = entries.map((e) => awardId(e.record.source, e.record.sourceAwardId));
  const held = await heldAwards(root, tx, ids);
  /** Rows that stop being current, by the time the revision replacing them became known. */
  const retired = new Map<string, number[]>();
  const inserts: AwardRow[] = [];
  const backfills: { index: number; row: AwardRow }[] = [];
  const outcomes = entries.map(({ record: given, meta }, i): WriteOutcome => {
    const id = ids[i]!;
    const current = held.get(id);
    const stated = publishedBefore(given, meta.loadedAt);
    const known: Known = meta.knownAt
      ? { knownAt: meta.knownAt, knownFrom: 'published' }
      : stated
        ? { knownAt: stated, knownFrom: 'record' }
        : { knownAt: meta.loadedAt, knownFrom: 'load' };
    const { knownAt } = known;
    if (current && knownAt < current.known_at) {
      const record = withIdEchoAlert(given);
      const revisionId = sha1(canonicalJson({ ...record, observedAt: null }));
      backfills.push({ index: i, row: toRow(id, revisionId, record, 0, meta, known) });
      return 'unchanged';
    }
    // Two views of one award (a search row, its detail) each say some details: what one says adds to what
    // is held, so reading both again changes nothing.
    const before = current?.details ? (JSON.parse(current.details) as Record<string, unknown>) : null;
    const record = withIdEchoAlert(
      before && given.details ? { ...given, details: { ...before, ...given.details } } : given,
    );
    // When the source was observed is not what it says: observing the same award again is no new revision.
    const revisionId = sha1(canonicalJson({ ...record, observedAt: null }));
    if (current?.revision_id === revisionId) return 'unchanged';
    if (current) retire(retired, knownAt, current.row_id);
    inserts.push(toRow(id, revisionId, record, (current?.revision ?? 0) + 1, meta, known));
    return current ? 'revised' : 'inserted';
  });
  for (const [knownAt, rowIds] of retired) {
    for (let i = 0; i < rowIds.length; i += RETIRE_CHUNK) {
      await tx
        .updateTable('awards')
        .set({ is_current: 0, superseded_at: knownAt })
        .where('row_id', 'in', rowIds.slice(i, i + RETIRE_CHUNK))
        .execute();
    }
  }
  await insertAwardRows(root, tx, inserts);
  for (const { index, row } of backfills) {
    outcomes[index] = await placeInHistory(tx, {
      table: 'awards',
      rowId: 'row_id',
      hashColumn: 'revision_id',
      key: { id: row.id },
      hash: row.revision_id,
      knownAt: row.known_at,
      knownFrom: row.known_from as KnownFrom,
      row: (revision, supersededAt) => ({ ...row, revision, is_current: 0, superseded_at: supersededAt }),
    });
  }
  return outcomes;
}

/**
 * When the source published this revision of the award, where it says: USAspending's Last Modified Date, a
 * notice's publication date (a date counts from its start, UTC).
 */
export function awardPublishedAt(record: AwardRecordValue): string | undefined {
  const said = record.details?.lastModified ?? record.details?.published;
  const day = said === undefined ? undefined : /^\d{4}-\d{2}-\d{2}/.exec(said)?.[0];
  return day && `${day}T00:00:00.000Z`;
}

/** The source's date of the revision, when it is before the load (a date past it is no publication yet). */
function publishedBefore(record: AwardRecordValue, loadedAt: string): string | undefined {
  const at = awardPublishedAt(record);
  return at && at < loadedAt ? at : undefined;
}

/** The record with an alert added when its amount repeats its own id (`amountEchoingId`). */
function withIdEchoAlert(record: AwardRecordValue): AwardRecordValue {
  const echoed = amountEchoingId(record.obligatedAmount, record.sourceAwardId);
  if (!echoed) return record;
  const alert = `the amount repeats the award's own id ${echoed}: likely the id keyed as the amount`;
  const alerts = record.details?.alerts ?? [];
  if (alerts.includes(alert)) return record;
  return { ...record, details: { ...record.details, alerts: [...alerts, alert] } };
}

function toRow(
  id: string,
  revisionId: string,
  record: AwardRecordValue,
  revision: number,
  meta: BatchEntry<AwardRecordValue>['meta'],
  { knownAt, knownFrom }: Known,
): AwardRow {
  return {
    id,
    revision_id: revisionId,
    source: record.source,
    source_award_id: record.sourceAwardId,
    jurisdiction: record.jurisdiction,
    award_type: record.awardType,
    title: record.title,
    award_date: record.awardDate,
    fiscal_year: fiscalYear(record.awardDate),
    currency: record.currency,
    obligated_amount: record.obligatedAmount,
    amount_key: amountKey(record.obligatedAmount),
    amount_micros: amountMicros(record.obligatedAmount),
    recipient_name: record.recipient.name,
    agency_name: record.agency.name,
    sector: record.sector,
    ticker: record.ticker,
    parent_id: record.parentSourceAwardId ? awardId(record.source, record.parentSourceAwardId) : null,
    source_url: record.sourceUrl,
    observed_at: record.observedAt,
    entity: record.entity ? JSON.stringify(record.entity) : null,
    revenue_comparison: record.revenueComparison ? JSON.stringify(record.revenueComparison) : null,
    details: record.details ? canonicalJson(record.details) : null,
    revision,
    is_current: 1,
    loaded_at: meta.loadedAt,
    load_source: meta.source,
    known_at: knownAt,
    known_from: knownFrom,
    superseded_at: null,
  };
}

/** When a revision became known, and from where: given with the file, the date its record states, or the load. */
type Known = { knownAt: string; knownFrom: KnownFrom };
