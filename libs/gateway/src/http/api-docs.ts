import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';

export const OPENAPI_FILE = join('docs', 'openapi.json');

/** The repository root: the nearest folder above this file holding docs/openapi.json. */
function findDocument(from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, OPENAPI_FILE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Serves the checked-in OpenAPI document at /docs-json and an interactive page at /docs. */
export function setupApiDocs(app: INestApplication): void {
  const file = findDocument();
  if (!file) return;
  const document = JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject;
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
