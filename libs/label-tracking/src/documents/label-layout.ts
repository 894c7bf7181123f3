import { LabelAddressDto, LabelView } from '@consign/contracts';
import { Drawing, DrawingElement, Symbology, fitText } from './drawing';

/** A label the carrier has numbered: what its documents are made from. */
export type AllocatedLabel = LabelView & { tracking_number: string; tracking_courier: string };

/** 4 × 6 in at 203 dpi, the thermal label every carrier prints on. */
export const LABEL_DPI = 203;
export const LABEL_WIDTH = 812;
export const LABEL_HEIGHT = 1218;

const MARGIN = 24;
const INNER = LABEL_WIDTH - 2 * MARGIN;

/**
 * The 2D code each carrier prints beside its 1D barcode, where it uses one: DHL Express and UPS
 * PDF417 (UPS's domestic MaxiCode is left out: neither ZPL renderer nor decoder available here
 * could check one), Royal Mail and DPD DataMatrix. USPS labels carry the 1D code only.
 */
const CARRIER_2D: Readonly<Record<string, Symbology>> = {
  UPS: 'pdf417',
  DHL: 'pdf417',
  RM: 'datamatrix',
  DPD: 'datamatrix',
};

/** The parcel's weight as printed: the declared package weight, or the items' total. */
export function labelWeight(label: LabelView): string {
  const thousandths =
    label.package_attributes?.weight != null
      ? Math.round(label.package_attributes.weight * 1000)
      : label.items.reduce((sum, item) => sum + Math.round(item.weight * 1000) * item.quantity, 0);
  return `${String(thousandths / 1000)} ${label.weight_unit.toUpperCase()}`;
}

/** The tracking number in groups, as carriers print it under the barcode. */
export function spacedTrackingNumber(number: string): string {
  return number.match(/.{1,4}/g)?.join(' ') ?? number;
}

/** What the 2D code carries: the parcel's routing facts, separated by `|`. */
export function twoDimensionalData(label: AllocatedLabel): string {
  const to = label.shipping_address;
  return [
    label.tracking_number,
    to.country_code,
    (to.zip_code ?? '').replace(/\s+/g, ''),
    label.service.service_code,
    labelWeight(label).replace(' ', ''),
    String(label.id),
  ].join('|');
}

/**
 * The address's lines; a field stored as null (labels created before the gateway's nullAsAbsent)
 * is left out, as when absent.
 */
function addressLines(address: LabelAddressDto): string[] {
  const cityLine = [address.city, address.province_code ?? address.province, address.zip_code]
    .filter((part) => part != null && part !== '')
    .join(' ');
  return [
    `${address.first_name} ${address.last_name}`,
    address.company_name,
    address.address1,
    address.address2,
    address.district,
    cityLine,
  ].filter((line): line is string => line != null && line.trim() !== '');
}

/**
 * The shipping label, laid out the way carrier labels are: sender and ship date at the top, the
 * recipient large, the service band with the carrier's 2D code and the routing, the tracking
 * number with its Code 128 barcode, and the references at the bottom.
 */
export function labelDrawing(label: AllocatedLabel): Drawing {
  const elements: DrawingElement[] = [];
  const text = (x: number, y: number, size: number, value: string, width: number, bold = false) =>
    elements.push({ kind: 'text', x, y, size, text: fitText(value, size, width, bold), bold });
  const rule = (y: number, height = 4) =>
    elements.push({ kind: 'rule', x: 0, y, width: LABEL_WIDTH, height });

  // Sender, and the facts a depot reads first.
  text(MARGIN, 20, 20, 'FROM', 200, true);
  addressLines(label.shipper_address)
    .concat(`${label.shipper_address.country_code} ${label.shipper_address.country}`)
    .slice(0, 6)
    .forEach((line, i) => text(MARGIN, 46 + i * 24, 20, line, 470));
  const facts: [string, string][] = [
    ['SHIP DATE', label.created_time.slice(0, 10)],
    ['WEIGHT', labelWeight(label)],
    ['PHONE', label.shipper_address.phone],
  ];
  facts.forEach(([name, value], i) => {
    text(520, 20 + i * 56, 18, name, 270, true);
    text(520, 42 + i * 56, 24, value, 270);
  });
  rule(196);

  // Recipient.
  text(MARGIN, 210, 22, 'SHIP TO', 300, true);
  const to = label.shipping_address;
  const [name, ...rest] = addressLines(to);
  text(MARGIN, 240, 40, name, INNER, true);
  rest
    .slice(0, 5)
    .forEach((line, i) => text(MARGIN, 290 + i * 38, 32, line, INNER, i === rest.length - 1));
  text(MARGIN, 486, 44, `${to.country.toUpperCase()} (${to.country_code})`, INNER, true);
  text(MARGIN, 536, 22, `Tel. ${to.phone}`, INNER);
  rule(566, 6);

  // Service band: the carrier's 2D code, the service and the routing.
  const symbology = CARRIER_2D[label.tracking_courier];
  const bandX = symbology ? 316 : MARGIN;
  if (symbology)
    elements.push({
      kind: 'barcode',
      x: MARGIN,
      y: 586,
      symbology,
      text: twoDimensionalData(label),
      // PDF417: 2-dot bars (0.25 mm), rows 3 bars tall; DataMatrix: 6-dot modules (0.75 mm).
      module: symbology === 'pdf417' ? 2 : 6,
      height: 0,
    });
  text(bandX, 586, 64, label.tracking_courier, LABEL_WIDTH - bandX - MARGIN, true);
  text(
    bandX,
    660,
    28,
    [label.service.service_code, label.service.inco_term].filter(Boolean).join(' · '),
    LABEL_WIDTH - bandX - MARGIN,
  );
  text(
    bandX,
    700,
    52,
    `${to.country_code} ${to.zip_code ?? to.city}`,
    LABEL_WIDTH - bandX - MARGIN,
    true,
  );
  rule(820);

  // The tracking number, and its Code 128 barcode.
  text(MARGIN, 834, 22, `${label.tracking_courier} TRACKING #`, INNER, true);
  text(MARGIN, 862, 36, spacedTrackingNumber(label.tracking_number), INNER, true);
  elements.push({
    kind: 'barcode',
    x: MARGIN + 16,
    y: 918,
    symbology: 'code128',
    text: label.tracking_number,
    module: 3,
    height: 180,
  });
  rule(1118);

  // References.
  const items = label.items.reduce((sum, item) => sum + item.quantity, 0);
  text(MARGIN, 1130, 22, `REF ${label.reference}`, INNER, true);
  text(
    MARGIN,
    1158,
    20,
    [
      label.metadata?.platform_order_no && `ORDER ${label.metadata.platform_order_no}`,
      label.metadata?.platform,
      `${items} ${items === 1 ? 'item' : 'items'}`,
    ]
      .filter(Boolean)
      .join(' · '),
    INNER,
  );
  text(
    MARGIN,
    1184,
    20,
    `LABEL ${label.id} · ${label.service.inco_term === 'DDP' ? 'DUTIES PAID (DDP)' : 'DUTIES UNPAID (DAP)'}`,
    INNER,
  );
  elements.push({
    kind: 'frame',
    x: 0,
    y: 0,
    width: LABEL_WIDTH,
    height: LABEL_HEIGHT,
    thickness: 4,
  });
  return { unitsPerInch: LABEL_DPI, width: LABEL_WIDTH, height: LABEL_HEIGHT, elements };
}
