import { describe, expect, it } from 'vitest';
import {
  amountEchoingId,
  amountKey,
  amountMicros,
  fiscalYear,
  formatMicros,
} from '../../../src/datasets/awards/derive.js';

describe('award amounts and fiscal years', () => {
  it('amount keys sort like the amounts, exactly, up to 24 digits and 6 decimals', () => {
    const amounts = ['0', '0.5', '9.999999', '10', '10.000001', '999999999999999999999999.999999'];
    const keys = amounts.map(amountKey);
    expect([...keys].sort()).toEqual(keys);
    expect(amountKey('1000000.5')).toBe('000000000000000001000000.500000');
    // Beyond double precision: these differ in the last decimal and must not compare equal.
    expect(amountKey('123456789012345678901234.000001') > amountKey('123456789012345678901234.000000')).toBe(
      true,
    );
    expect(amountKey('-5') < amountKey('0')).toBe(true);
  });

  it('millionths when they fit, and back', () => {
    expect(amountMicros('156725919.62')).toBe(156725919620000);
    expect(amountMicros('-250000')).toBe(-250000000000);
    expect(amountMicros('999999999999999999999999')).toBeNull();
    expect(formatMicros(156725919620000)).toBe('156725919.62');
    expect(formatMicros(1_500_000)).toBe('1.50');
    expect(formatMicros(1_234_567)).toBe('1.234567');
    expect(formatMicros(-250000000000)).toBe('-250000.00');
  });

  it('fiscal years run October to September', () => {
    expect(fiscalYear('2023-09-30')).toBe(2023);
    expect(fiscalYear('2023-10-01')).toBe(2024);
    expect(fiscalYear('2016-09-08')).toBe(2016);
  });
});

describe('an amount repeating its own id', () => {
  it('is found when a whole amount equals an all-digit part of the id of five digits or more', () => {
    expect(amountEchoingId('2110458.00', 'ASST_NON_2110458_8000')).toBe('2110458');
    expect(amountEchoingId('2110458', 'CONT_AWD_0002110458_9700_-NONE-_-NONE-')).toBe('0002110458');
    expect(amountEchoingId('1002081198', 'CONT_AWD_X/1002081198/2021-04-20')).toBe('1002081198');
  });

  it('is not found for cents, short numbers, ids with letters, or other amounts', () => {
    expect(amountEchoingId('2110458.50', 'ASST_NON_2110458_8000')).toBeNull();
    expect(amountEchoingId('9700.00', 'CONT_AWD_0007_9700_FA870215D0001_9700')).toBeNull();
    expect(amountEchoingId('870215.00', 'CONT_AWD_FA870215C0007_9700_-NONE-_-NONE-')).toBeNull();
    expect(amountEchoingId('2110459.00', 'ASST_NON_2110458_8000')).toBeNull();
    expect(amountEchoingId('-2110458.00', 'ASST_NON_2110458_8000')).toBe('2110458');
  });
});
