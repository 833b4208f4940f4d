// Which importer reads which dataset's interchange records.
import { awardsImporter } from './awards/import.js';
import { cotImporter } from './cot/import.js';
import { cpiImporter } from './cpi/import.js';
import { energyImporter } from './energy/import.js';
import { eventsImporter } from './events/import.js';
import { execPayImporter } from './exec-pay/import.js';
import type { Importer } from './import.js';
import { kpisImporter } from './kpis/import.js';

export const IMPORTERS: Record<string, Importer<never>> = {
  awards: awardsImporter as Importer<never>,
  cot: cotImporter as Importer<never>,
  cpi: cpiImporter as Importer<never>,
  'energy-inventories': energyImporter as Importer<never>,
  events: eventsImporter as Importer<never>,
  'exec-pay': execPayImporter as Importer<never>,
  'kpis-guidance': kpisImporter as Importer<never>,
};
