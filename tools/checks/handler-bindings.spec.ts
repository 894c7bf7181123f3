import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * A bus handler names its definition twice: `@MessagePattern(OrderCommands.Create.topic)` binds
 * the method to the topic, `handleCommand(OrderCommands.Create, …)` validates with the
 * definition's request contract (or `inbox.consume(…, X.topic, …)`, `this.ingest(X, …)`). Nothing
 * in the types ties the two; this check does, over every service's `*.handlers.ts`: the body of
 * each pattern's method names exactly the definition its pattern names.
 */
const ROOT = resolve(__dirname, '..', '..');

function handlerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : handlerFiles(path);
    return entry.name.endsWith('.handlers.ts') ? [path] : [];
  });
}

interface Binding {
  where: string;
  /** The definition named in the decorator (`OrderCommands.Create`), or undefined. */
  pattern?: string;
  /** The definitions the method's body names (`OrderCommands.Create`, `StockEvents.Reserved`). */
  named: string[];
}

const PATTERNS = new Set(['MessagePattern', 'EventPattern']);
/** A definition: a member of one of the contracts' `…Commands` or `…Events` objects. */
const DEFINITION = /^[A-Z]\w*(?:Commands|Events)\.\w+$/;

function bindingsOf(file: string, text = readFileSync(file, 'utf8')): Binding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const bindings: Binding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isMethodDeclaration(node) && node.body) {
      const pattern = ts
        .getDecorators(node)
        ?.map((decorator) => decorator.expression)
        .filter(ts.isCallExpression)
        .find((call) => PATTERNS.has(call.expression.getText(source)));
      const named = new Set<string>();
      const collect = (inner: ts.Node): void => {
        if (ts.isPropertyAccessExpression(inner) && DEFINITION.test(inner.getText(source)))
          named.add(inner.getText(source));
        ts.forEachChild(inner, collect);
      };
      collect(node.body);
      const topic = pattern?.arguments[0]?.getText(source);
      bindings.push({
        where: `${relative(ROOT, file)} ${node.name.getText(source)}`,
        pattern: topic?.endsWith('.topic') ? topic.slice(0, -'.topic'.length) : topic,
        named: [...named],
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return bindings;
}

describe('bus handler bindings', () => {
  const bindings = handlerFiles(join(ROOT, 'libs')).flatMap((file) => bindingsOf(file));

  it('finds the handlers of every service', () => {
    expect(bindings.filter((b) => b.pattern).length).toBeGreaterThan(40);
  });

  it('binds each @MessagePattern/@EventPattern method to the definition it names, and no other', () => {
    expect(mismatches(bindings)).toEqual([]);
  });

  it('reports a method whose pattern and body name different definitions', () => {
    const text = `class H {
      @MessagePattern(OrderCommands.Get.topic)
      get(@Payload() p: unknown) { return handleCommand(OrderCommands.List, p, (q) => q); }
      @EventPattern(StockEvents.Reserved.topic)
      on(@Payload() raw: unknown) { return handleEvent(this.messaging, StockEvents.Reserved, raw, f); }
      @EventPattern(LabelEvents.Created.topic)
      consumed(@Payload() raw: unknown) { return this.inbox.consume(C, LabelEvents.Voided.topic, raw, f); }
      @MessagePattern(OrderCommands.Cancel.topic)
      cancel(@Payload() p: unknown) { return this.cancelIt(p); }
    }`;
    expect(mismatches(bindingsOf(join(ROOT, 'example.handlers.ts'), text))).toEqual([
      'example.handlers.ts get: pattern OrderCommands.Get, names OrderCommands.List',
      'example.handlers.ts consumed: pattern LabelEvents.Created, names LabelEvents.Voided',
      'example.handlers.ts cancel: pattern OrderCommands.Cancel, names nothing',
    ]);
  });
});

/** Pattern methods whose body does not name exactly the pattern's definition. */
function mismatches(found: Binding[]): string[] {
  return found
    .filter((b) => b.pattern !== undefined)
    .filter((b) => b.named.length !== 1 || b.named[0] !== b.pattern)
    .map((b) => `${b.where}: pattern ${b.pattern}, names ${b.named.join(', ') || 'nothing'}`);
}
