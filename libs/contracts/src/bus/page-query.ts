import { IsInt, Max, Min } from 'class-validator';
import { PAGE_LIMITS } from '../common/page.dto';
import { MerchantScoped } from './catalog.commands';

/** A list query over the bus: the merchant and the page (already defaulted by the gateway). */
export class MerchantPageQuery extends MerchantScoped {
  @IsInt()
  @Min(1)
  @Max(PAGE_LIMITS.max_page)
  page!: number;

  @IsInt()
  @Min(PAGE_LIMITS.min_size)
  @Max(PAGE_LIMITS.max_size)
  size!: number;
}
