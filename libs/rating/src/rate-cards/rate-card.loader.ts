import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, isAbsolute } from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { isDecimal } from '@consign/contracts';
import { checkRateCards } from './rate-card.checks';
import { RateCardError, RateCardProblem } from './rate-card.error';
import { RATE_CARD_SCHEMAS } from './rate-card.schema';
import { RATE_CARD_KINDS, RateCardKind, RateCards } from './rate-card.types';
import { ReferenceData, buildReferenceData } from './reference-data';

/** One rate-card file's content, and the name it is reported under. */
export interface RateCardSource {
  file: string;
  text: string;
  /** The version its file name carries (`warehouses.v3.json` → 3), checked against `version`. */
  version?: number;
}

export type RateCardSources = Record<RateCardKind, RateCardSource>;

/** Where the repository keeps the cards, relative to its root. */
export const RATE_CARDS_FOLDER = join('libs', 'rating', 'rate-cards');

const FILE_NAME = /^([a-z-]+)\.v(\d+)\.json$/;

/**
 * Validates and compiles the four rate cards. Pure: no file access. Every problem found is
 * reported (file, JSON path of the field, what is wrong) in one RateCardError.
 */
export function parseRateCards(sources: RateCardSources): ReferenceData {
  const problems: RateCardProblem[] = [];
  const parsed: Partial<Record<RateCardKind, unknown>> = {};
  for (const kind of RATE_CARD_KINDS) {
    const { file, text, version } = sources[kind];
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      problems.push({ file, path: '', message: `is not valid JSON: ${(error as Error).message}` });
      continue;
    }
    const validate = validators()[kind];
    if (!validate(data)) {
      problems.push(...(validate.errors ?? []).flatMap((e) => describeSchemaError(file, e)));
      continue;
    }
    const declared = (data as { version: number }).version;
    if (version !== undefined && declared !== version)
      problems.push({
        file,
        path: 'version',
        message: `must be ${version}, as the file name says`,
      });
    parsed[kind] = data;
  }
  if (problems.length) throw new RateCardError(problems);
  const cards = parsed as RateCards;
  const findings = checkRateCards(cards);
  if (findings.length)
    throw new RateCardError(findings.map((f) => ({ file: sources[f.kind].file, ...f })));
  return buildReferenceData(cards);
}

/**
 * Reads the newest version of each card from a folder (`<kind>.v<N>.json`, highest N) and
 * parses them. Older versions stay in the folder as history; they are not read.
 */
export function loadRateCards(folder: string): ReferenceData {
  if (!existsSync(folder))
    throw new RateCardError([{ file: shown(folder), path: '', message: 'does not exist' }]);
  const newest = new Map<string, { name: string; version: number }>();
  for (const name of readdirSync(folder)) {
    const match = FILE_NAME.exec(name);
    if (!match) continue;
    const version = Number(match[2]);
    if ((newest.get(match[1])?.version ?? 0) < version) newest.set(match[1], { name, version });
  }
  const missing = RATE_CARD_KINDS.filter((kind) => !newest.has(kind));
  if (missing.length)
    throw new RateCardError(
      missing.map((kind) => ({
        file: shown(join(folder, `${kind}.v1.json`)),
        path: '',
        message: `is missing: ${shown(folder)} has no ${kind}.v<N>.json`,
      })),
    );
  const sources = Object.fromEntries(
    RATE_CARD_KINDS.map((kind) => {
      const { name, version } = newest.get(kind)!;
      const path = join(folder, name);
      return [kind, { file: shown(path), text: readFileSync(path, 'utf8'), version }];
    }),
  ) as RateCardSources;
  return parseRateCards(sources);
}

/**
 * The repository's rate-card folder: the nearest `libs/rating/rate-cards` above `from`. Found from
 * the TypeScript sources (tests), the build (`dist/…`, which does not copy the cards) and the
 * Docker image (which copies them to the same place beside `dist`).
 */
export function findRateCardsFolder(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, RATE_CARDS_FOLDER);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir)
      throw new RateCardError([
        { file: RATE_CARDS_FOLDER, path: '', message: `not found in any folder above ${from}` },
      ]);
  }
}

/** A path as an operator reads it: relative to the working directory when inside it. */
function shown(path: string): string {
  const fromCwd = relative(process.cwd(), path);
  return fromCwd && !fromCwd.startsWith('..') && !isAbsolute(fromCwd) ? fromCwd : path;
}

let compiled: Record<RateCardKind, ValidateFunction> | undefined;

function validators(): Record<RateCardKind, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
  });
  ajv.addKeyword({
    keyword: 'decimal',
    type: 'number',
    schemaType: 'array',
    errors: false,
    validate: ([precision, scale]: [number, number], value: number) =>
      isDecimal(value, precision, scale),
  });
  ajv.addKeyword({
    keyword: 'timeZone',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (_wanted: boolean, value: string) => isTimeZone(value),
  });
  compiled = Object.fromEntries(
    RATE_CARD_KINDS.map((kind) => [kind, ajv.compile(RATE_CARD_SCHEMAS[kind])]),
  ) as Record<RateCardKind, ValidateFunction>;
  return compiled;
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** `/warehouses/0/fees` → `warehouses[0].fees`. */
function pathOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, key) => (/^\d+$/.test(key) ? `${path}[${key}]` : path ? `${path}.${key}` : key),
      '',
    );
}

function child(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** An ajv error as the operator should read it; noise of `anyOf` alternatives is dropped. */
function describeSchemaError(file: string, error: ErrorObject): RateCardProblem[] {
  const path = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const parent = error.parentSchema as { description?: string } | undefined;
  // A bad key: ajv reports the key's own error (with propertyName), then a summary to drop.
  if (error.keyword === 'propertyNames') return [];
  if (error.propertyName !== undefined) {
    return [
      {
        file,
        path: child(path, error.propertyName),
        message: `is not allowed as a key: a key must be ${parent?.description ?? 'valid'}`,
      },
    ];
  }
  switch (error.keyword) {
    case 'required':
      return [{ file, path: child(path, String(params.missingProperty)), message: 'is required' }];
    case 'additionalProperties':
      return [
        {
          file,
          path: child(path, String(params.additionalProperty)),
          message: 'is not a field of this card',
        },
      ];
    case 'type':
      // The null alternative of a nullable field: the other alternative says what is wrong.
      if (params.type === 'null') return [];
      return [{ file, path, message: `must be ${withArticle(String(params.type))}` }];
    case 'anyOf':
      return [];
    case 'enum':
      return [
        {
          file,
          path,
          message: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`,
        },
      ];
    case 'pattern':
    case 'not':
      return [{ file, path, message: `must be ${parent?.description ?? error.message}` }];
    case 'decimal': {
      const [precision, scale] = error.schema as [number, number];
      return [
        {
          file,
          path,
          message: `must be a number with at most ${precision} digits, ${scale} of them decimals`,
        },
      ];
    }
    case 'timeZone':
      return [{ file, path, message: 'must be an IANA time zone, e.g. Europe/Berlin' }];
    default:
      return [{ file, path, message: error.message ?? `breaks the rule ${error.keyword}` }];
  }
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
