import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  ADAPTER_DEFINITIONS,
  COMMAND_DEFINITIONS,
  EVENT_DEFINITIONS,
  describeContract,
} from '@consign/contracts';
import {
  DocumentSchema,
  contractSchemasOf,
  disagreements,
} from '../checks/contract-schema-agreement';
import { findRepoRoot } from '../openapi/plugin-metadata';

/**
 * The AsyncAPI document's payloads say what the consumers validate: for every contract class among
 * them (commands, replies and events with validation rules), each keyword of the reader's JSON
 * Schema is in the document's schema with the same value, and both require the same properties
 * (contract-schema-agreement.ts); and every property the document lists for a command or an event
 * is one a rule names.
 */
const document = parse(
  readFileSync(join(findRepoRoot(__dirname), 'docs', 'asyncapi.yaml'), 'utf8'),
) as { components: { schemas: Record<string, DocumentSchema> } };

const compared = () => contractSchemasOf(document.components.schemas);

/** Each bus definition's class (a command's request, an event's payload) with its topic. */
const definedClasses = (): [string, new () => object][] => [
  ...COMMAND_DEFINITIONS.map((d): [string, new () => object] => [d.topic, d.request]),
  ...[...EVENT_DEFINITIONS, ...ADAPTER_DEFINITIONS].map((d): [string, new () => object] => [
    d.topic,
    d.payload,
  ]),
];

/**
 * The properties a class's document schema lists that no rule of the class names: validation
 * strips them (whitelist), so a consumer would read undefined where the producer's type says a
 * value.
 */
function unvalidated(cls: new () => object): string[] {
  const documented = Object.keys(document.components.schemas[cls.name]?.properties ?? {});
  const validated = new Set(describeContract(cls).properties.map(({ name }) => name));
  return documented.filter((property) => !validated.has(property));
}

describe("the AsyncAPI document's payloads", () => {
  it('cover the bus contracts', () => {
    const names = compared().map(([name]) => name);
    expect(names.length).toBeGreaterThan(60);
    expect(names).toEqual(
      expect.arrayContaining(['CalculateOrderCommand', 'OrderCreatedEvent', 'LabelVoidedEvent']),
    );
  });

  it('say what the consumers validate, property by property', () => {
    expect(compared().flatMap(([name, schema, cls]) => disagreements(name, schema, cls))).toEqual(
      [],
    );
  });

  it('validate every property a command or event carries', () => {
    const classes = definedClasses();
    expect(classes.length).toBeGreaterThan(50);
    expect(
      classes.flatMap(([topic, cls]) =>
        unvalidated(cls).map((property) => `${topic} (${cls.name}).${property}`),
      ),
    ).toEqual([]);
  });

  it('would report a property the producer sends and the consumers strip', () => {
    class Undeclared {
      label_id!: number;
    }
    Object.defineProperty(Undeclared, 'name', { value: 'LabelVoidedEvent' });
    expect(unvalidated(Undeclared)).toEqual(
      expect.arrayContaining(['label_id', 'carrier_code', 'tracking_number']),
    );
  });

  it('would report a limit the consumers do not apply, and a required property left optional', () => {
    const [name, schema, cls] = compared().find(([n]) => n === 'OrderCreatedEvent')!;
    const altered = structuredClone(schema);
    delete altered.properties!.warehouse_code.minLength;
    altered.required = altered.required!.filter((property) => property !== 'order_id');
    expect(disagreements(name, altered, cls)).toEqual([
      expect.stringContaining(`${name} requires`),
      `${name}.warehouse_code minLength: documented undefined, ruled 1`,
    ]);
  });
});
