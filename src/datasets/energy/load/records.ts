// Which EIA reader a file needs: a workbook (OLE compound file) or text.
import type { SourceFile } from '../../../ingest/source.js';
import type { EnergyRecordValue } from '../import.js';
import { eiaTextRecords } from './eia.js';
import { workbookRecords } from './workbook.js';

const COMPOUND_FILE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export function eiaRecords(source: SourceFile): AsyncGenerator<{ line: number; value: EnergyRecordValue }> {
  if (source.head.subarray(0, COMPOUND_FILE.length).equals(COMPOUND_FILE)) return workbookRecords(source);
  return eiaTextRecords(source);
}
