import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { blankToUndefined, toInt } from '@consign/config';

/**
 * The gateway's own settings (the API gateway and the standalone app read them with loadConfigOf;
 * the process-wide ones, AppConfig, are the platform's).
 */
export class GatewayConfig {
  /** The first merchant's API key; generated and saved under DATA_DIR when unset. */
  @Transform(blankToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'BOOTSTRAP_API_KEY must be at least 16 characters long' })
  @Matches(/^[\x21-\x7e]+$/, {
    message: 'BOOTSTRAP_API_KEY must be printable ASCII without spaces',
  })
  BOOTSTRAP_API_KEY?: string;

  /** The first admin key (role admin: the admin API); generated and saved under DATA_DIR when unset. */
  @Transform(blankToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'BOOTSTRAP_ADMIN_KEY must be at least 16 characters long' })
  @Matches(/^[\x21-\x7e]+$/, {
    message: 'BOOTSTRAP_ADMIN_KEY must be printable ASCII without spaces',
  })
  BOOTSTRAP_ADMIN_KEY?: string;

  /**
   * How often each gateway reads the keys and carrier credentials revoked or created since its
   * last look, and forgets them; 0 turns it off (then cached keys live 30 s).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  KEY_REVOCATION_POLL_MS = 1000;

  /** Largest accepted request body, in bytes; larger bodies get 413. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  BODY_LIMIT_BYTES = 1024 * 1024;

  /** Requests one API key (or, unauthenticated, one client address) may make per window; 0 turns the limit off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  RATE_LIMIT_MAX = 6000;

  /** The rate-limit window, in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  RATE_LIMIT_WINDOW_MS = 60_000;

  /**
   * Redis the gateways keep their rate-limit counters in (`redis://[user:password@]host:port[/db]`
   * or `rediss://`), so that the limit holds across replicas; when unset, each gateway process
   * counts in its own memory.
   */
  @Transform(blankToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;
}
