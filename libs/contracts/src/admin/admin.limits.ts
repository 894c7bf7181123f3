/** Limits of the admin API's fields (merchant names are a `varchar(128)` column). */
export const ADMIN_LIMITS = {
  merchant_name: 128,
  /** API keys and carrier credentials: 16 to 256 printable ASCII characters. */
  key_min: 16,
  key_max: 256,
} as const;

/**
 * What an API key may do: `merchant` keys use the merchant API; `operator` keys also run the
 * warehouse operations (pick, ship, receipt, reject); `admin` keys manage merchants, keys and
 * carrier credentials (the admin API) and nothing else.
 */
export enum ApiKeyRole {
  Merchant = 'merchant',
  Operator = 'operator',
  Admin = 'admin',
}

/** Printable ASCII without spaces: the form of every key and credential. */
export const KEY_TEXT = /^[\x21-\x7e]+$/;
