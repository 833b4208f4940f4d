// TED award notices in the R2.0.9 export XML (TED_EXPORT) → notice rows: one per awarded lot, with its
// winner(s) (a group award is one row naming them all), the buyer, the lot's value and currency and the
// contract's conclusion date, from every form that awards contracts (AWARD_FORMS); a notice of any other form
// is refused naming it. A lot not awarded is no award. The notice's own total is kept as published, never recomputed: lots
// of a framework may exceed it, and a total that adds lots of other currencies is flagged, not repaired.
import type { FileKind, LoadContext } from '../../../ingest/run.js';
import { SourceError, type SourceFile } from '../../../ingest/source.js';
import { element, elements, readXml, textOf, type XmlNode } from '../../../ingest/xml.js';
import { soleWinnerEntity } from '../entity.js';
import type { AwardRecordValue } from '../import.js';
import type { Held } from './usaspending.js';

export const TED_R209: FileKind = {
  name: 'TED award notice, R2.0.9 export XML (forms F03, F06, F15, F21–F23, F25)',
  recognises: (head) => head.includes('<TED_EXPORT') && head.includes('R2.0.9'),
};

/** The R2.0.9 forms that award contracts, by their number. F21–F23 award only as award notices. */
const AWARD_FORMS: Record<string, string> = {
  F03: 'contract award',
  F06: 'contract award, utilities',
  F15: 'voluntary ex ante transparency: awarded without prior publication',
  F21: 'social and other specific services, public contracts',
  F22: 'social and other specific services, utilities',
  F23: 'social and other specific services, concessions',
  F25: 'concession award',
};
/** Forms that carry no award, named when refused. */
const OTHER_FORMS: Record<string, string> = {
  F01: 'prior information notice',
  F02: 'contract notice',
  F04: 'periodic indicative notice, utilities',
  F05: 'contract notice, utilities',
  F07: 'qualification system, utilities',
  F08: 'notice on a buyer profile',
  F12: 'design contest notice',
  F13: 'results of a design contest',
  F14: 'corrigendum',
  F20: 'modification notice',
  F24: 'concession notice',
};
const FORM_NAME = /^(F\d{2})_2014$/;
const LISTS = new Set([
  'AWARD_CONTRACT',
  'CONTRACTOR',
  'P',
  'URI_DOC',
  ...[...Object.keys(AWARD_FORMS), ...Object.keys(OTHER_FORMS)].map((f) => `${f}_2014`),
]);

const text = (node: unknown): string | null => {
  if (node === undefined || node === null) return null;
  if (typeof node === 'string') return node.trim() || null;
  const paragraphs = element(node)?.P;
  if (Array.isArray(paragraphs)) return paragraphs.map(text).filter(Boolean).join(' ') || null;
  return textOf(node, '#text')?.trim() || null;
};
const money = (node: unknown) => {
  const amount = textOf(node, '#text')?.trim();
  const currency = textOf(node, '@CURRENCY');
  return amount && /^-?\d+(\.\d+)?$/.test(amount) && currency ? { amount, currency } : null;
};
const date8 = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

/** The notice's award form (its original language's), its number and kind, and its OJ S number and date. */
function awardForm(file: string, doc: XmlNode) {
  const coded = element(doc, 'TED_EXPORT', 'CODED_DATA_SECTION');
  const notice = element(coded, 'NOTICE_DATA');
  const section = element(doc, 'TED_EXPORT', 'FORM_SECTION') ?? {};
  const formKey = Object.keys(section).find((k) => FORM_NAME.test(k));
  const formNumber = formKey ? (FORM_NAME.exec(formKey)?.[1] ?? null) : null;
  const forms = formKey ? elements(section, formKey) : [];
  const form = forms.find((f) => f['@CATEGORY'] === 'ORIGINAL') ?? forms[0];
  const number = text(notice?.NO_DOC_OJS);
  const published = text(element(coded, 'REF_OJS')?.DATE_PUB);
  if (!form || !formNumber || !number || !published)
    throw new SourceError(
      file,
      null,
      'not a TED award notice (a form such as F03_2014, OJ S number and publication date expected)',
    );
  const kind = AWARD_FORMS[formNumber];
  if (!kind)
    throw new SourceError(
      file,
      null,
      `notice ${number} is form ${formNumber}${OTHER_FORMS[formNumber] ? ` (${OTHER_FORMS[formNumber]})` : ''}, which awards no contract: the award forms are ${Object.keys(AWARD_FORMS).join(', ')}`,
    );
  return { notice, form, formNumber, kind, number, published };
}

/** A lot's value: the contract's, or (stated alone) the buyer's estimate, said to be one. */
function lotValue(lot: XmlNode) {
  const values = element(lot, 'AWARDED_CONTRACT', 'VALUES');
  const awarded = money(values?.VAL_TOTAL);
  if (awarded) return { ...awarded, kind: 'contract_value' as const };
  const estimated = money(values?.VAL_ESTIMATED_TOTAL);
  return estimated ? { ...estimated, kind: 'estimated_value' as const } : null;
}

export async function* tedNotice(
  source: SourceFile,
  context: LoadContext<Held>,
): AsyncGenerator<{ line: number; value: AwardRecordValue }> {
  const doc = await readXml(source, LISTS);
  const { notice, form, formNumber, kind, number, published } = awardForm(source.name, doc);
  const country = String(element(notice, 'ISO_COUNTRY')?.['@VALUE'] ?? '');
  const uris = elements(element(notice, 'URI_LIST'), 'URI_DOC');
  const page = text(uris.find((u) => u['@LG'] === form['@LG']) ?? uris[0]);
  const buyer = text(element(form, 'CONTRACTING_BODY', 'ADDRESS_CONTRACTING_BODY')?.OFFICIALNAME);
  const object = element(form, 'OBJECT_CONTRACT');
  const total = money(object?.VAL_TOTAL);
  if (!page || !buyer)
    throw new SourceError(source.name, null, `notice ${number} names no TED page or buyer`);
  const lots = elements(form, 'AWARD_CONTRACT').filter((a) => a.AWARDED_CONTRACT);
  if (lots.length === 0 && !form.AWARD_CONTRACT)
    throw new SourceError(
      source.name,
      null,
      `notice ${number} (form ${formNumber}, ${kind}) has no award section: not an award notice`,
    );
  const currencies = new Set(
    lots.map((a) => money(element(a, 'AWARDED_CONTRACT', 'VALUES')?.VAL_TOTAL)?.currency),
  );
  const mixed = total !== null && [...currencies].some((c) => c && c !== total.currency);
  const unvalued = lots.filter((lot) => !lotValue(lot)).length;
  if (unvalued) context.notes.push(`${unvalued} awarded lots state no value and were left out`);
  for (const [i, lot] of lots.entries()) {
    const awarded = element(lot, 'AWARDED_CONTRACT');
    // A lot that states only the buyer's estimate (and the range of tenders) is shown with that estimate,
    // said to be one.
    const value = lotValue(lot);
    if (!value) continue;
    const winners = elements(element(awarded, 'CONTRACTORS'), 'CONTRACTOR');
    const names = winners
      .map((w) => text(element(w, 'ADDRESS_CONTRACTOR')?.OFFICIALNAME))
      .filter((n): n is string => !!n);
    if (names.length === 0)
      throw new SourceError(source.name, i + 1, `lot ${lot['@ITEM'] ?? i + 1} of ${number} names no winner`);
    const entity = soleWinnerEntity(context.prepared, names);
    const concluded = text(awarded?.DATE_CONCLUSION_CONTRACT);
    yield {
      line: i + 1,
      value: {
        source: 'ted',
        sourceAwardId: `${number}#${lot['@ITEM'] ?? i + 1}`,
        jurisdiction: country === 'UK' ? 'GB' : country,
        awardType: 'notice',
        title: text(lot.TITLE) ?? text(object?.TITLE) ?? '',
        awardDate: concluded && /^\d{4}-\d{2}-\d{2}$/.test(concluded) ? concluded : date8(published),
        currency: value.currency,
        obligatedAmount: value.amount,
        recipient: { name: names.join('; ').slice(0, 500) },
        agency: { name: buyer.slice(0, 500) },
        sector: null,
        ticker: entity?.ticker ?? null,
        parentSourceAwardId: null,
        sourceUrl: page,
        observedAt: context.now.toISOString(),
        entity: entity ? { ...entity } : null,
        revenueComparison: null,
        details: {
          form: formNumber,
          published: date8(published),
          amountKind: value.kind,
          ...(total ? { noticeTotal: total } : {}),
          ...(mixed
            ? { alerts: [`the notice's total (${total?.currency}) adds lots valued in other currencies`] }
            : {}),
        },
      },
    };
  }
}
