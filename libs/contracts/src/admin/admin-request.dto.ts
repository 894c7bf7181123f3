import {
  IsEnum,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { IsId } from '../common/formats';
import { Transformed } from '../common/contract-metadata';
import { PageQuery } from '../common/page.dto';
import { IsCarrierCode } from '../label/carrier-code';
import { ADMIN_LIMITS, ApiKeyRole, KEY_TEXT } from './admin.limits';

const DECIMAL_INTEGER_TEXT = /^\d+$/;

/** Body of POST /2026-05/cloud/admin/merchant: a merchant account and its first API key. */
export class CreateMerchantRequest {
  /** The merchant's name, 1 to 128 characters (spaces around it are dropped). */
  @IsString()
  @Transformed(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim() : value,
  )
  @IsNotEmpty()
  @MaxLength(ADMIN_LIMITS.merchant_name)
  name!: string;

  /** The role of its first key: `merchant` (when absent or null) or `operator`. */
  @IsOptional()
  @IsIn([ApiKeyRole.Merchant, ApiKeyRole.Operator])
  role?: ApiKeyRole.Merchant | ApiKeyRole.Operator;
}

/** Body of POST /2026-05/cloud/admin/key: another API key. */
export class CreateApiKeyRequest {
  /** `merchant`, `operator` or `admin`. */
  @IsEnum(ApiKeyRole)
  role!: ApiKeyRole;

  /** The merchant the key acts for: required for `merchant` and `operator` keys, absent for `admin`. */
  @ValidateIf((request: CreateApiKeyRequest) => request.role !== ApiKeyRole.Admin)
  @IsId()
  merchant_id?: number;
}

/** Body of POST /2026-05/cloud/admin/key/revoke: revokes a key given in clear. */
export class RevokeApiKeyRequest {
  /** The key in clear, as it was issued. */
  @IsString()
  @Length(ADMIN_LIMITS.key_min, ADMIN_LIMITS.key_max)
  @Matches(KEY_TEXT, { message: 'api_key must be printable ASCII without spaces' })
  api_key!: string;
}

/** Body of POST /2026-05/cloud/admin/carrier-credential: a carrier's webhook credential. */
export class CreateCarrierCredentialRequest {
  /** The carrier it reports for, e.g. `DHL`. */
  @IsCarrierCode()
  carrier_code!: string;
}

/** Body of POST /2026-05/cloud/admin/carrier-credential/revoke: revokes a credential given in clear. */
export class RevokeCarrierCredentialRequest {
  /** The credential in clear, as it was issued. */
  @IsString()
  @Length(ADMIN_LIMITS.key_min, ADMIN_LIMITS.key_max)
  @Matches(KEY_TEXT, { message: 'credential must be printable ASCII without spaces' })
  credential!: string;
}

/** Query of GET /2026-05/cloud/admin/key: a page of keys, of one merchant when given. */
export class ApiKeyQuery extends PageQuery {
  /** Only this merchant's keys. */
  @IsOptional()
  @Transformed(({ value }: { value: unknown }) =>
    typeof value === 'string' && DECIMAL_INTEGER_TEXT.test(value) ? Number(value) : value,
  )
  @IsId()
  merchant_id?: number;
}
