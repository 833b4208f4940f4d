import type { Deps } from '../../app/deps.js';
import { type EnvelopeValue, storedMeta } from '../envelope.js';
import type { OperationInput } from '../operation.js';
import { SOURCES } from '../sources.js';

const CLASS_LABELS: Record<string, string> = {
  noncommercial: 'Noncommercial',
  commercial: 'Commercial',
  nonreportable: 'Nonreportable',
  producer: 'Producer/Merchant/Processor/User',
  swap: 'Swap Dealers',
  'managed-money': 'Managed Money',
  'other-reportable': 'Other Reportables',
};

const CLASSES = {
  legacy: ['noncommercial', 'commercial', 'nonreportable'],
  disaggregated: ['producer', 'swap', 'managed-money', 'other-reportable', 'nonreportable'],
};

function board(query: Record<string, unknown>) {
  const report = (query.report as 'legacy' | 'disaggregated' | undefined) ?? 'legacy';
  const traderClass =
    (query.traderClass as string | undefined) ?? CLASSES[report][report === 'legacy' ? 0 : 2];
  return {
    source: 'cftc',
    scope: 'futures-only',
    reportFamily: report,
    generatedAt: new Date().toISOString(),
    asOf: null,
    fetchedAt: null,
    publishedAt: null,
    status: 'partial',
    gaps: ['no reports loaded'],
    classes: CLASSES[report].map((id) => ({ id, label: CLASS_LABELS[id] ?? id })),
    traderClass: traderClass as string,
    rows: [],
  };
}

export async function readBoard(_deps: Deps, { query }: OperationInput): Promise<EnvelopeValue<unknown>> {
  return { data: board(query), meta: storedMeta('cot', [SOURCES.cftc]) };
}

export async function readContract(_deps: Deps, { query }: OperationInput): Promise<EnvelopeValue<unknown>> {
  return { data: board(query), meta: storedMeta('cot', [SOURCES.cftc]) };
}
