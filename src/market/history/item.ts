// A history item: its shape, and the errors of the fields it cannot serve.
import type { LoadedFile, Repair } from '../../kernel/market-provider.js';
import type { BarRows } from '../bars/rows.js';
import type { FieldDef } from '../fields/dictionary.js';
import type { Resolved } from '../symbology/resolve.js';
import type { FieldAnswer } from './request.js';

export type Row = Record<string, string | number | null>;

export interface HistoryItem {
  input: string;
  status: 'ok' | 'partial' | 'error';
  resolved?: Resolved;
  rows?: Row[] | BarRows;
  errors?: Record<string, { code: string; message: string }>;
  error?: { code: string; message: string };
  derived?: string[];
  truncated?: { requestedStart: string; start: string };
  /** The dates actually held, when they cover noticeably less than the window asked for. */
  held?: { start: string; end: string };
  /** Set when the last row is older than the market's last session before the end, or the bars are an old copy. */
  stale?: boolean;
  staleReason?: string;
  /** Bar values in the window served otherwise than sent (main units). */
  repaired?: Repair[];
  /** Where the rows' values came from: the upstream that answered, or stored. */
  source?: string;
  /** Stored bars: the files that brought the window's rows, each with the days it brought. */
  files?: LoadedFile[];
  /** Closes a second upstream answered otherwise: the day, the other upstream and its value. */
  disputed?: { date: string; field: string; source: string; value: number }[];
}

export type FieldError = { code: string; message: string };

/** A field the item serves: known, and applying to the instrument. */
export type ServedField = FieldAnswer & { def: FieldDef };

/** Each field the instrument cannot have, by the field as sent: unknown, not served, or not applicable. */
export function fieldErrors(fields: FieldAnswer[], resolved: Resolved): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  for (const f of fields) {
    if (f.error) errors[f.input] = f.error;
    else if (f.def && !f.def.appliesTo.includes(resolved.assetType)) {
      errors[f.input] = {
        code: 'not_applicable',
        message: `${f.def.id} does not apply to ${resolved.assetType}`,
      };
    }
  }
  return errors;
}
