// The sample route's fixtures: static, synthetic, in each dataset's data shape.
import { Type } from 'typebox';
import { awardsSample } from './awards/sample.js';
import { AwardsData } from './awards/schema.js';
import { cotSample } from './cot/sample.js';
import { CotData } from './cot/schema.js';
import { cpiSample } from './cpi/sample.js';
import { CpiData } from './cpi/schema.js';
import { energySample } from './energy/sample.js';
import { EnergyData } from './energy/schema.js';
import type { EnvelopeValue, MetaValue } from './envelope.js';
import { eventsSample } from './events/sample.js';
import { EventsData } from './events/schema.js';
import { execPaySample } from './exec-pay/sample.js';
import { ExecPayData } from './exec-pay/schema.js';
import { kpisSample } from './kpis/sample.js';
import { KpisData } from './kpis/schema.js';
import type { DatasetId } from './operation.js';
import { BLS_DISCLAIMER, SOURCES } from './sources.js';

export const SampleData = Type.Union([
  AwardsData,
  KpisData,
  ExecPayData,
  EventsData,
  CpiData,
  EnergyData,
  CotData,
]);

const NOTE = 'Synthetic sample: invented rows in the dataset’s shape, not real data.';

function meta(dataset: DatasetId, source: MetaValue['source'], extra: Partial<MetaValue> = {}): MetaValue {
  return {
    dataset,
    asOf: null,
    source,
    historyStarts: null,
    coverage: null,
    lastUpdated: null,
    sample: true,
    note: NOTE,
    ...extra,
  };
}

export const SAMPLES: Record<string, EnvelopeValue<unknown>> = {
  awards: { data: awardsSample, meta: meta('awards', [SOURCES.usaspending, SOURCES.ted]) },
  'kpis-guidance': { data: kpisSample, meta: meta('kpis-guidance', [SOURCES['sec-edgar']]) },
  'exec-pay': { data: execPaySample, meta: meta('exec-pay', [SOURCES['sec-edgar']]) },
  events: { data: eventsSample, meta: meta('events', [SOURCES['sec-edgar']]) },
  cpi: { data: cpiSample, meta: meta('cpi', [SOURCES.bls], { disclaimer: BLS_DISCLAIMER }) },
  'energy-inventories': { data: energySample, meta: meta('energy-inventories', [SOURCES.eia]) },
  cot: { data: cotSample, meta: meta('cot', [SOURCES.cftc]) },
};
