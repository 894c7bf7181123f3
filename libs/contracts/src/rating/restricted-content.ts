/**
 * Contents a carrier service may refuse. An order calculation declares the first three with its
 * `alcohol`, `battery` and `liquid` flags; a label declares all four in `package_attributes`.
 */
export enum RestrictedContent {
  Battery = 'battery',
  Liquid = 'liquid',
  Alcohol = 'alcohol',
  DangerousGoods = 'dangerous_goods',
}
