// market.fields and GET /v1/fields: the dictionary, narrowed by words, asset type and history serving.
import type { AssetType } from '../symbology/resolve.js';
import { FIELDS, NOT_SERVED } from './dictionary.js';

export interface FieldQuery {
  /** Words that must each appear in the id, an alias, the unit or the group (any letter case). */
  query?: string;
  assetType?: AssetType;
  history?: boolean;
}

export function searchFields(request: FieldQuery = {}) {
  const words = (request.query ?? '')
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  const matches = (text: string) => words.every((w) => text.includes(w));
  const fields = FIELDS.filter(
    (f) =>
      (request.assetType === undefined || f.appliesTo.includes(request.assetType)) &&
      (request.history === undefined || f.history === request.history) &&
      matches([f.id, ...f.aliases.map((a) => a.name), f.unit, f.group].join(' ').toLowerCase()),
  );
  const notServed = NOT_SERVED.filter((n) => matches(`${n.name} ${n.reason}`.toLowerCase()));
  return { fields, notServed };
}
