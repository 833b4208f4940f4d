// The sample fixtures are served pre-serialised, so each is checked here against its dataset's data shape.
import { describe, expect, it } from 'vitest';
import { AwardsData } from '../../src/datasets/awards/schema.js';
import { CotData } from '../../src/datasets/cot/schema.js';
import { CpiData } from '../../src/datasets/cpi/schema.js';
import { EnergyData } from '../../src/datasets/energy/schema.js';
import { Meta } from '../../src/datasets/envelope.js';
import { EventsData } from '../../src/datasets/events/schema.js';
import { ExecPayData } from '../../src/datasets/exec-pay/schema.js';
import { KpisData } from '../../src/datasets/kpis/schema.js';
import { SAMPLES } from '../../src/datasets/samples.js';
import { compileStrict as compile } from '../../src/kernel/validation.js';

const SHAPES = {
  awards: AwardsData,
  'kpis-guidance': KpisData,
  'exec-pay': ExecPayData,
  events: EventsData,
  cpi: CpiData,
  'energy-inventories': EnergyData,
  cot: CotData,
};

describe('sample fixtures', () => {
  for (const [dataset, shape] of Object.entries(SHAPES)) {
    it(`the ${dataset} sample has the ${dataset} data shape and a sample meta`, () => {
      const sample = SAMPLES[dataset];
      const validateData = compile(shape);
      expect(validateData(sample?.data), JSON.stringify(validateData.errors)).toBe(true);
      const validateMeta = compile(Meta);
      expect(validateMeta(sample?.meta), JSON.stringify(validateMeta.errors)).toBe(true);
    });
  }

  it('a wrong shape is refused by the same check', () => {
    const validate = compile(CotData);
    expect(validate({ ...(SAMPLES.cot?.data as object), rows: [{ contractCode: 1 }] })).toBe(false);
  });
});
