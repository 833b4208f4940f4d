// TED contract award notices in eForms (UBL ContractAwardNotice with the eForms extension) → notice rows: one
// per winning tender of an awarded lot (a lot result "selec-w"), with its tenderers, the buyer, the tender's
// value and currency, the contract's award date. The notice's own total is kept as published, and a total in
// one currency over tenders in others is flagged, as for the R2.0.9 notices.
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { SourceError, type SourceFile } from '../../../ingest/source.js';
import { element, elements, readXml, textOf, type XmlNode } from '../../../ingest/xml.js';
import { soleWinnerEntity } from '../entity.js';
import type { AwardRecordValue } from '../import.js';
import type { Held } from './usaspending.js';

export const TED_EFORMS: FileKind = {
  name: 'TED award notice, eForms XML (ContractAwardNotice)',
  recognises: (head) => /<(\w+:)?ContractAwardNotice\b/.test(head) && head.includes('eforms'),
};

const LISTS = new Set([
  'LotResult',
  'LotTender',
  'SettledContract',
  'TenderingParty',
  'Tenderer',
  'Organization',
  'ProcurementProjectLot',
]);

/** eForms names countries by ISO 3166 alpha-3; Quarry's jurisdictions are alpha-2. */
const ALPHA2: Record<string, string> = {
  AUT: 'AT',
  BEL: 'BE',
  BGR: 'BG',
  HRV: 'HR',
  CYP: 'CY',
  CZE: 'CZ',
  DNK: 'DK',
  EST: 'EE',
  FIN: 'FI',
  FRA: 'FR',
  DEU: 'DE',
  GRC: 'GR',
  HUN: 'HU',
  IRL: 'IE',
  ITA: 'IT',
  LVA: 'LV',
  LTU: 'LT',
  LUX: 'LU',
  MLT: 'MT',
  NLD: 'NL',
  POL: 'PL',
  PRT: 'PT',
  ROU: 'RO',
  SVK: 'SK',
  SVN: 'SI',
  ESP: 'ES',
  SWE: 'SE',
  NOR: 'NO',
  ISL: 'IS',
  LIE: 'LI',
  CHE: 'CH',
  GBR: 'GB',
  MKD: 'MK',
  SRB: 'RS',
  MNE: 'ME',
  ALB: 'AL',
  TUR: 'TR',
  UKR: 'UA',
  MDA: 'MD',
  BIH: 'BA',
};

/** A node's text; of several (a name in several languages, a reference parsed as a list), the first. */
const text = (node: unknown): string | null => {
  if (Array.isArray(node)) return text(node[0]);
  if (typeof node === 'string') return node.trim() || null;
  return textOf(node, '#text')?.trim() || null;
};
const id = (node: unknown): string | null => (Array.isArray(node) ? id(node[0]) : text(element(node)?.ID));
const first = (node: unknown): unknown => (Array.isArray(node) ? node[0] : node);
const day = (value: unknown) => text(value)?.slice(0, 10) ?? null;

type Organisations = ReturnType<typeof organisationsOf>;

/** An amount with its currency, as written; null without either. */
function moneyOf(node: XmlNode | undefined): { amount: string; currency: string } | null {
  const amount = text(node);
  const currency = textOf(node, '@currencyID');
  return amount && currency !== undefined ? { amount, currency } : null;
}

/** The notice's organisations by id: each one's name (the first language given) and country. */
function organisationsOf(extension: XmlNode | undefined) {
  return new Map(
    elements(extension?.Organizations, 'Organization').map((o) => {
      const company = element(o, 'Company');
      return [
        id(company?.PartyIdentification),
        {
          // A name in several languages: the first given.
          name: text(element(first(company?.PartyName))?.Name),
          country: text(element(company, 'PostalAddress', 'Country')?.IdentificationCode),
        },
      ];
    }),
  );
}

/** The buyer: buyers procuring jointly are named together, the first the lead, whose country the notice is under. */
function buyerOf(file: string, notice: XmlNode, organisations: Organisations, publication: string) {
  const buyers = (
    Array.isArray(notice.ContractingParty) ? notice.ContractingParty : [notice.ContractingParty]
  )
    .map((party) => organisations.get(id(element(party, 'Party')?.PartyIdentification)))
    .filter((b) => b?.name);
  const buyer = buyers[0] && { name: buyers.map((b) => b?.name).join('; '), country: buyers[0].country };
  if (!buyer?.name) throw new SourceError(file, null, `notice ${publication} names no buyer`);
  const country = buyer.country ? (ALPHA2[buyer.country] ?? buyer.country) : null;
  if (!country) throw new SourceError(file, null, `notice ${publication} names no buyer country`);
  return { buyer: { name: buyer.name, country: buyer.country }, country };
}

export async function* eformsNotice(
  source: SourceFile,
  context: LoadContext<Held>,
): AsyncGenerator<{ line: number; value: AwardRecordValue }> {
  const doc = await readXml(source, LISTS);
  const notice = element(doc, 'ContractAwardNotice');
  const extension = element(notice, 'UBLExtensions', 'UBLExtension', 'ExtensionContent', 'EformsExtension');
  const result = element(extension, 'NoticeResult');
  const publication = text(element(extension, 'Publication')?.NoticePublicationID);
  const published = day(element(extension, 'Publication')?.PublicationDate);
  if (!notice || !result || !publication || !published)
    throw new SourceError(
      source.name,
      null,
      'not a published eForms award notice (notice result and publication expected)',
    );

  const organisations = organisationsOf(extension);
  const { buyer, country } = buyerOf(source.name, notice, organisations, publication);

  const tenders = new Map(elements(result, 'LotTender').map((t) => [id(t), t]));
  const parties = new Map(elements(result, 'TenderingParty').map((p) => [id(p), p]));
  const contracts = elements(result, 'SettledContract');
  const lots = new Map(elements(notice, 'ProcurementProjectLot').map((l) => [id(l), l]));
  const noticeTotal = moneyOf(element(result, 'TotalAmount'));

  const rows: AwardRecordValue[] = [];
  for (const lotResult of elements(result, 'LotResult')) {
    if (text(lotResult.TenderResultCode) !== 'selec-w') continue;
    for (const ref of elements(lotResult, 'LotTender')) {
      const tender = tenders.get(id(ref));
      const value = moneyOf(element(tender, 'LegalMonetaryTotal', 'PayableAmount'));
      if (!tender || !value) continue;
      const party = parties.get(id(tender.TenderingParty));
      const names = elements(party, 'Tenderer')
        .map((t) => organisations.get(id(t))?.name)
        .filter((n): n is string => !!n);
      if (names.length === 0)
        throw new SourceError(source.name, null, `tender ${id(tender)} of ${publication} names no tenderer`);
      const entity = soleWinnerEntity(context.prepared, names);
      const contract = contracts.find((c) => id(c.LotTender) === id(tender));
      const lot = lots.get(id(tender.TenderLot));
      const title =
        text(contract?.Title) ??
        text(element(lot, 'ProcurementProject')?.Name) ??
        text(element(notice, 'ProcurementProject')?.Name) ??
        '';
      rows.push({
        source: 'ted',
        sourceAwardId: `${publication}#${id(lotResult)}/${id(tender)}`,
        jurisdiction: country,
        awardType: 'notice',
        title,
        awardDate: day(contract?.AwardDate) ?? day(contract?.IssueDate) ?? published,
        currency: value.currency,
        obligatedAmount: value.amount,
        recipient: { name: names.join('; ').slice(0, 500) },
        agency: { name: buyer.name.slice(0, 500) },
        sector: null,
        ticker: entity?.ticker ?? null,
        parentSourceAwardId: null,
        sourceUrl: `https://ted.europa.eu/en/notice/-/detail/${publication}`,
        observedAt: context.now.toISOString(),
        entity: entity ? { ...entity } : null,
        revenueComparison: null,
        details: { amountKind: 'contract_value', published, ...(noticeTotal ? { noticeTotal } : {}) },
      });
    }
  }
  const mixed = noticeTotal !== null && rows.some((r) => r.currency !== noticeTotal.currency);
  if (rows.length === 0) context.notes.push(`notice ${publication} has no winning tender with a value`);
  for (const [i, row] of rows.entries()) {
    if (mixed)
      row.details = {
        ...row.details,
        alerts: [`the notice's total (${noticeTotal?.currency}) adds tenders valued in other currencies`],
      };
    yield { line: i + 1, value: row };
  }
}
