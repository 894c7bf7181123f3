import { CheckpointStatus } from '@consign/contracts';
import { CarrierEventTable, TextRule } from './carrier-table';
import { CARRIER_TABLES } from './carrier-tables';
import { GENERIC_TEXT_RULES } from './generic-text-rules';

/** Which rule decided a status (kept with nothing; for tests, logs and the documentation). */
export type NormalisedBy = 'carrier_code' | 'carrier_text' | 'generic_text' | 'none';

export interface NormalisedStatus {
  status: CheckpointStatus;
  by: NormalisedBy;
}

function firstMatch(rules: readonly TextRule[] | undefined, text: string): TextRule | undefined {
  return rules?.find((rule) => rule.pattern.test(text));
}

/**
 * Maps carrier event codes to the spec's checkpoint statuses. The fallback, in order:
 *
 * 1. the carrier's table, by event code (upper-cased and trimmed); a coarse code may be narrowed
 *    by the generic text rules to one of the statuses it allows;
 * 2. the carrier's own text rules, on the event text;
 * 3. the generic text rules (common English carrier wording);
 * 4. `unknown` — the carrier's text stays in the checkpoint's `description` for clients to show.
 */
export class CheckpointNormaliser {
  private readonly tables: Map<string, CarrierEventTable>;

  constructor(tables: readonly CarrierEventTable[] = CARRIER_TABLES) {
    this.tables = new Map(tables.map((table) => [table.carrier, table]));
  }

  normalise(carrierCode: string, eventCode: string, text: string): NormalisedStatus {
    const table = this.tables.get(carrierCode);
    const byCode = table?.codes[eventCode.trim().toUpperCase()];
    if (byCode !== undefined) {
      if (typeof byCode === 'string') return { status: byCode, by: 'carrier_code' };
      const refined = firstMatch(GENERIC_TEXT_RULES, text)?.status;
      return {
        status: refined && byCode.refine.includes(refined) ? refined : byCode.status,
        by: 'carrier_code',
      };
    }
    const byCarrierText = firstMatch(table?.text, text);
    if (byCarrierText) return { status: byCarrierText.status, by: 'carrier_text' };
    const byText = firstMatch(GENERIC_TEXT_RULES, text);
    if (byText) return { status: byText.status, by: 'generic_text' };
    return { status: CheckpointStatus.Unknown, by: 'none' };
  }

  knows(carrierCode: string): boolean {
    return this.tables.has(carrierCode);
  }
}
