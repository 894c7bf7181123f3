import { ApiKeyRole } from './admin.limits';

/** A merchant account. */
export class MerchantView {
  id!: number;
  name!: string;
  /** When it was created (ISO 8601 UTC). */
  created_time!: string;
}

export class MerchantPageView {
  page!: number;
  size!: number;
  /** Total number of merchants. */
  total!: number;
  list!: MerchantView[];
}

/** An API key as it is stored: never the key itself, which is shown once, when issued. */
export class ApiKeyView {
  id!: number;
  /** The merchant it acts for; null for an admin key. */
  merchant_id!: number | null;
  role!: ApiKeyRole;
  /** The key's first 12 characters, to recognise it. */
  prefix!: string;
  created_time!: string;
  /** When it was revoked; null while it is valid. */
  revoked_time!: string | null;
}

/** A newly issued API key: the only answer that ever carries the key itself. */
export class IssuedApiKeyView extends ApiKeyView {
  /** The key, shown this once: store it now (only its SHA-256 is kept). */
  api_key!: string;
}

export class ApiKeyPageView {
  page!: number;
  size!: number;
  /** Total number of keys (of the merchant, when asked for one). */
  total!: number;
  list!: ApiKeyView[];
}

/** A new merchant and its first key. */
export class CreatedMerchantView {
  merchant!: MerchantView;
  key!: IssuedApiKeyView;
}

/** A carrier's webhook credential as it is stored: never the credential itself. */
export class CarrierCredentialView {
  id!: number;
  carrier_code!: string;
  /** The credential's first 16 characters, to recognise it. */
  prefix!: string;
  created_time!: string;
  revoked_time!: string | null;
}

/** A newly issued carrier credential: the only answer that ever carries the credential. */
export class IssuedCarrierCredentialView extends CarrierCredentialView {
  /** The credential, shown this once (only its SHA-256 is kept). */
  credential!: string;
}

export class CarrierCredentialPageView {
  page!: number;
  size!: number;
  total!: number;
  list!: CarrierCredentialView[];
}
