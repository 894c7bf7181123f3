import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, Min, ValidateNested } from 'class-validator';
import { CreateProductRequest } from '../catalog';

/** Commands and queries carry the merchant they act for; services never trust anything else. */
export class MerchantScoped {
  @IsInt()
  @Min(1)
  merchant_id!: number;
}

export class CreateProductCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateProductRequest)
  product!: CreateProductRequest;
}

export class GetProductQuery extends MerchantScoped {
  @IsInt()
  @Min(1)
  product_id!: number;
}

export class ListProductsQuery extends MerchantScoped {}
