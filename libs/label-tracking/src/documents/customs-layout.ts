import { CustomsForm, LabelItemDto, WeightUnit } from '@consign/contracts';
import { Drawing, DrawingElement, fitText } from './drawing';
import { AllocatedLabel } from './label-layout';

/** Exact kilograms per unit, as rating converts (1 lb = 0.45359237 kg, 1 oz = 1/16 lb). */
const KG_PER: Record<WeightUnit, number> = {
  [WeightUnit.Kg]: 1,
  [WeightUnit.G]: 0.001,
  [WeightUnit.Lb]: 0.45359237,
  [WeightUnit.Oz]: 0.45359237 / 16,
};

/** Cents of a Number(12,2) amount, exactly. */
const cents = (amount: number) => Math.round(amount * 100);
const money = (value: number) => (value / 100).toFixed(2);

export interface CustomsLine {
  quantity: number;
  description: string;
  /** Kilograms, to the gram, for all units of the line. */
  netKg: string;
  /** Cents, for all units of the line, in the label's currency. */
  valueCents: number;
  hsCode: string;
  origin: string;
}

/** One line of the declaration per item: its customs description, or its product name. */
export function customsLines(label: AllocatedLabel): CustomsLine[] {
  const perKg = KG_PER[label.weight_unit];
  return label.items.map((item: LabelItemDto) => ({
    quantity: item.quantity,
    description: item.customs_description ?? item.product_name,
    netKg: (Math.round(item.weight * item.quantity * perKg * 1000) / 1000).toFixed(3),
    valueCents: cents(item.declared_unit_value ?? item.unit_price) * item.quantity,
    hsCode: item.hs_code ?? '',
    origin: item.origin_country_code ?? '',
  }));
}

/**
 * The customs declaration a label's parcel travels with, laid out as the UPU forms are: CN22
 * (small, on a 4 × 6 in page) or CN23 (A4, with both parties' addresses), listing each item's
 * description, quantity, net weight, value, HS tariff number and country of origin; category
 * "sale of goods" (a merchant's shipment); the sender's certification with the label's date;
 * and the tracking number with its Code 128 barcode. Points (72 per inch).
 */
export function customsDrawing(label: AllocatedLabel, form: CustomsForm): Drawing {
  const cn23 = form === CustomsForm.CN23;
  const width = cn23 ? 595 : 288;
  const height = cn23 ? 842 : 432;
  const m = cn23 ? 36 : 12;
  const inner = width - 2 * m;
  const small = cn23 ? 9 : 6;
  const body = cn23 ? 10 : 8;
  const elements: DrawingElement[] = [];
  const text = (x: number, y: number, size: number, value: string, w: number, bold = false) =>
    elements.push({ kind: 'text', x, y, size, text: fitText(value, size, w, bold), bold });
  const rule = (y: number, x = m, w = inner, h = 1) =>
    elements.push({ kind: 'rule', x, y, width: w, height: h });

  let y = m;
  text(m, y, cn23 ? 16 : 11, `CUSTOMS DECLARATION ${cn23 ? 'CN 23' : 'CN 22'}`, inner, true);
  y += cn23 ? 20 : 14;
  text(m, y, small, 'May be opened officially', inner);
  y += small + 6;
  text(m, y, body, `Designated operator: ${label.tracking_courier}`, inner * 0.6);
  text(m + inner * 0.6, y, body, `Label ${label.id}`, inner * 0.4);
  y += body + 6;

  if (cn23) {
    const party = (title: string, a: AllocatedLabel['shipper_address'], x: number) => {
      text(x, y, small, title, inner / 2 - 8, true);
      [
        `${a.first_name} ${a.last_name}`,
        a.company_name,
        a.address1,
        a.address2,
        [a.zip_code, a.city, a.province].filter(Boolean).join(' '),
        `${a.country} (${a.country_code})`,
        `Tel. ${a.phone}`,
      ]
        .filter((line): line is string => !!line)
        .forEach((line, i) => text(x, y + 12 + i * 12, body, line, inner / 2 - 8));
    };
    party('FROM (sender)', label.shipper_address, m);
    party('TO (addressee)', label.shipping_address, m + inner / 2);
    y += 12 + 7 * 12 + 6;
    text(m, y, body, `Sender's reference: ${label.reference}`, inner);
    y += body + 8;
  }

  rule(y);
  y += 4;
  text(m, y, small, 'Category of item: [X] Sale of goods  [ ] Gift  [ ] Documents', inner);
  y += small + 3;
  text(m, y, small, '[ ] Commercial sample  [ ] Returned goods  [ ] Other', inner);
  y += small + 6;
  rule(y);
  y += 4;

  // The table: description | qty | net weight | value | HS code | origin.
  const cols = cn23
    ? [m, m + 230, m + 270, m + 340, m + 420, m + 490]
    : [m, m + 92, m + 110, m + 144, m + 188, m + 232];
  const heads = [
    'Detailed description of contents',
    'Qty',
    'Net kg',
    `Value ${label.currency}`,
    'HS tariff no.',
    'Origin',
  ];
  heads.forEach((head, i) =>
    text(cols[i], y, small, head, (cols[i + 1] ?? m + inner) - cols[i] - 3, true),
  );
  y += small + 5;
  rule(y);
  y += 3;
  const lines = customsLines(label);
  const rowHeight = body + 5;
  const maxRows = Math.floor((height - y - (cn23 ? 230 : 150)) / rowHeight);
  const shown = lines.slice(0, maxRows);
  for (const line of shown) {
    const cells = [
      line.description,
      String(line.quantity),
      line.netKg,
      money(line.valueCents),
      line.hsCode,
      line.origin,
    ];
    cells.forEach((cell, i) =>
      text(cols[i], y, body, cell, (cols[i + 1] ?? m + inner) - cols[i] - 3),
    );
    y += rowHeight;
  }
  if (lines.length > shown.length) {
    text(
      m,
      y,
      small,
      `+ ${lines.length - shown.length} more lines: see the commercial invoice`,
      inner,
    );
    y += rowHeight;
  }
  rule(y);
  y += 4;
  const totalKg = lines.reduce((sum, l) => sum + Math.round(Number(l.netKg) * 1000), 0) / 1000;
  const totalValue = lines.reduce((sum, l) => sum + l.valueCents, 0);
  text(m, y, body, 'Total', cols[2] - m, true);
  text(cols[2], y, body, totalKg.toFixed(3), cols[3] - cols[2] - 3, true);
  text(cols[3], y, body, `${money(totalValue)} ${label.currency}`, cols[4] - cols[3] + 40, true);
  y += body + 8;
  rule(y);
  y += 6;

  const certification =
    'I, the undersigned, whose name and address are given on the item, certify that the particulars given in this declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.';
  const perLine = Math.floor(inner / (small * 0.6));
  for (const chunk of certification.match(new RegExp(`.{1,${perLine}}(\\s|$)`, 'g')) ?? []) {
    text(m, y, small, chunk.trim(), inner);
    y += small + 2;
  }
  y += 4;
  const sender = label.shipper_address;
  text(
    m,
    y,
    body,
    `Date and sender's signature: ${label.created_time.slice(0, 10)}  ${sender.first_name} ${sender.last_name}`,
    inner,
  );
  y += body + 10;

  text(m, y, body, `Item: ${label.tracking_number}`, inner, true);
  y += body + 4;
  elements.push({
    kind: 'barcode',
    x: m,
    y,
    symbology: 'code128',
    text: label.tracking_number,
    module: cn23 ? 2 : 1,
    height: cn23 ? 60 : 40,
  });
  elements.push({
    kind: 'frame',
    x: m / 2,
    y: m / 2,
    width: width - m,
    height: height - m,
    thickness: 1,
  });
  return { unitsPerInch: 72, width, height, elements };
}
