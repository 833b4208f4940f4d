// The awards importer: the interchange record (record.ts), checked, written in batches (write.ts).
import type { Importer } from '../../ingest/import.js';
import { AwardRecord, type AwardRecordValue } from './record.js';
import { awardPublishedAt, writeAwards } from './write.js';

export { AwardDetails, AwardRecord, type AwardRecordValue } from './record.js';
export { awardId } from './write.js';

export const awardsImporter: Importer<AwardRecordValue> = {
  dataset: 'awards',
  record: AwardRecord,
  check(record) {
    if (record.parentSourceAwardId !== null && record.awardType === 'prime') {
      return 'a prime award has no parentSourceAwardId';
    }
    return null;
  },
  publishedAt: awardPublishedAt,
  writeBatch: writeAwards,
};
