import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  ASYNCAPI_YAML,
  DEFAULT_TOPIC_SIZING,
  TopicSizing,
  buildAsyncApiDocument,
  serializeAsyncApiDocument,
  topicsOf,
} from './asyncapi-document';
import { JsonSchema } from './payload-schemas';
import {
  CREATE_TOPICS_SH,
  STRIMZI_TOPICS_YAML,
  renderCreateTopicsScript,
  renderStrimziTopics,
} from './provisioning';

/** The sizing the checked-in document was generated with (the defaults when there is none). */
export function checkedInSizing(root: string): TopicSizing {
  const file = join(root, ASYNCAPI_YAML);
  if (!existsSync(file)) return DEFAULT_TOPIC_SIZING;
  const document = parse(readFileSync(file, 'utf8')) as {
    info?: { 'x-consign-generator'?: Partial<TopicSizing> };
  };
  return { ...DEFAULT_TOPIC_SIZING, ...document.info?.['x-consign-generator'] };
}

/** Every file `npm run asyncapi` writes, path → text, and the document itself. */
export function generateAsyncApiFiles(
  root: string,
  sizing: TopicSizing,
): { document: JsonSchema; files: Record<string, string> } {
  const document = buildAsyncApiDocument({ root, sizing });
  const topics = topicsOf(document);
  return {
    document,
    files: {
      [ASYNCAPI_YAML]: serializeAsyncApiDocument(document),
      [STRIMZI_TOPICS_YAML]: renderStrimziTopics(topics),
      [CREATE_TOPICS_SH]: renderCreateTopicsScript(topics),
    },
  };
}
