// One description per EIA series, whichever file brings it (table1.csv, ngshistory.xls, a data-browser
// download), so that loading another file of the same series changes nothing but the values it disagrees on.
import type { EnergyRecordValue } from '../import.js';

type SeriesRecord = Extract<EnergyRecordValue, { type: 'series' }>;

/** Table 1's stock rows and the EIA series each is. */
export const TABLE1_STOCKS: [stub: string, series: string, label: string][] = [
  ['Crude Oil', 'WCRSTUS1', 'Crude oil (incl. SPR)'],
  ['Commercial (Excluding SPR)', 'WCESTUS1', 'Commercial crude oil (excl. SPR)'],
  ['Strategic Petroleum Reserve (SPR)', 'WCSSTUS1', 'Strategic Petroleum Reserve'],
  ['Total Motor Gasoline', 'WGTSTUS1', 'Total motor gasoline'],
  ['Reformulated', 'WGRSTUS1', 'Reformulated gasoline'],
  ['Conventional', 'WG4ST_NUS_1', 'Conventional gasoline'],
  ['Blending Components', 'WBCSTUS1', 'Gasoline blending components'],
  ['Fuel Ethanol', 'W_EPOOXE_SAE_NUS_MBBL', 'Fuel ethanol'],
  ['Kerosene-Type Jet Fuel', 'WKJSTUS1', 'Kerosene-type jet fuel'],
  ['Distillate Fuel Oil', 'WDISTUS1', 'Distillate fuel oil'],
  ['15 ppm sulfur and Under', 'WD0ST_NUS_1', 'Distillate, 15 ppm sulfur and under'],
  ['> 15 ppm to 500 ppm sulfur', 'WD1ST_NUS_1', 'Distillate, over 15 to 500 ppm sulfur'],
  ['> 500 ppm sulfur', 'WDGSTUS1', 'Distillate, over 500 ppm sulfur'],
  ['Residual Fuel Oil', 'WRESTUS1', 'Residual fuel oil'],
  ['Propane/Propylene', 'WPRSTUS1', 'Propane/propylene'],
  ['Other Oils', 'W_EPPO6_SAE_NUS_MBBL', 'Other oils'],
  ['Unfinished Oils', 'WUOSTUS1', 'Unfinished oils'],
  ['Total Stocks (Including SPR)', 'WTTSTUS1', 'Total stocks (incl. SPR)'],
  ['Total Stocks (Excluding SPR)', 'WTESTUS1', 'Total stocks (excl. SPR)'],
];

/**
 * psw01's names of its stock series (without "Weekly U.S." and the unit, in lower case) and the series each
 * is: a copy of the workbook without its Sourcekey row is read by these.
 */
export const STOCK_LABELS = new Map<string, string>([
  ['ending stocks of crude oil', 'WCRSTUS1'],
  ['ending stocks excluding spr of crude oil', 'WCESTUS1'],
  ['ending stocks of crude oil in spr', 'WCSSTUS1'],
  ['ending stocks of total gasoline', 'WGTSTUS1'],
  ['ending stocks of reformulated motor gasoline', 'WGRSTUS1'],
  ['ending stocks of conventional motor gasoline', 'WG4ST_NUS_1'],
  ['ending stocks of gasoline blending components', 'WBCSTUS1'],
  ['ending stocks of fuel ethanol', 'W_EPOOXE_SAE_NUS_MBBL'],
  ['ending stocks of kerosene-type jet fuel', 'WKJSTUS1'],
  ['ending stocks of distillate fuel oil', 'WDISTUS1'],
  ['ending stocks of distillate fuel oil, 0 to 15 ppm sulfur', 'WD0ST_NUS_1'],
  ['ending stocks of distillate fuel oil, greater than 15 to 500 ppm sulfur', 'WD1ST_NUS_1'],
  ['ending stocks of distillate fuel oil, greater than 500 ppm sulfur', 'WDGSTUS1'],
  ['ending stocks of residual fuel oil', 'WRESTUS1'],
  ['propane and propylene ending stocks excluding propylene at terminal', 'WPRSTUS1'],
  ['ending stocks of other oils (excluding fuel ethanol)', 'W_EPPO6_SAE_NUS_MBBL'],
  ['ending stocks of unfinished oils', 'WUOSTUS1'],
  ['ending stocks of crude oil and petroleum products', 'WTTSTUS1'],
  ['ending stocks excluding spr of crude oil and petroleum products', 'WTESTUS1'],
]);

/** ngshistory.xls's columns and the EIA series each is. */
export const STORAGE_SERIES: Record<string, string> = {
  'East Region': 'WNGSR.EAST',
  'Midwest Region': 'WNGSR.MIDWEST',
  'Mountain Region': 'WNGSR.MOUNTAIN',
  'Pacific Region': 'WNGSR.PACIFIC',
  'South Central Region': 'WNGSR.SOUTH_CENTRAL',
  Salt: 'WNGSR.SALT',
  NonSalt: 'WNGSR.NONSALT',
  'Total Lower 48': 'NW2_EPG0_SWO_R48_BCF',
};

const KNOWN = new Map<string, SeriesRecord>([
  ...TABLE1_STOCKS.map(([, series, label], i): [string, SeriesRecord] => [
    series,
    {
      type: 'series',
      series,
      report: 'wpsr',
      tab: 'stocks',
      label,
      unit: 'thousand barrels',
      position: i + 1,
    },
  ]),
  ...Object.entries(STORAGE_SERIES).map(([name, series], i): [string, SeriesRecord] => [
    series,
    {
      type: 'series',
      series,
      report: 'wngsr',
      tab: 'storage',
      label: `Working gas in storage, ${name}`,
      unit: 'Bcf',
      position: i + 1,
    },
  ]),
]);

/** The description of a series the weekly tables carry; undefined for any other. */
export function knownSeries(series: string): SeriesRecord | undefined {
  return KNOWN.get(series);
}
