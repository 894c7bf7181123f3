import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { LABEL_LIMITS } from './label.limits';

/** Carrier service of a label (`service`). */
export class LabelServiceDto {
  /** Carrier service code, chosen from the carrier service query result. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(LABEL_LIMITS.service.service_code)
  service_code!: string;

  /** Incoterm, e.g. DAP or DDP. */
  @IsOptional()
  @IsString()
  @MaxLength(LABEL_LIMITS.service.inco_term)
  inco_term?: string;
}
