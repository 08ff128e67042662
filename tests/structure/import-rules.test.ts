// The import boundaries of eslint.config.js fire: each forbidden import below is reported, each allowed one is not,
// and the .astro files (which ESLint does not parse) keep the same boundaries through their imports.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { filesUnder, ROOT } from './source-tree';

const RULE = '@typescript-eslint/no-restricted-imports';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The boundary messages ESLint gives `code` as if it were the file at `filePath` (the file need not exist). */
async function boundaryMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  expect(
    result!.messages.filter((m) => m.fatal),
    `${filePath} parses`,
  ).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const forbidden: Array<[file: string, code: string]> = [
  ['src/components/reference/model.ts', "import { OPERATIONS } from '../../../server/openapi';"],
  ['src/components/reference/types.ts', "import type { JsonSchema } from '../../../server/openapi/route';"],
  ['src/pages/feed.ts', "export { createApp } from '../../server/app';"],
  ['src/worker/tracking-api.test.ts', "import { openBatch } from '../../server/tracking/cipher';"],
  ['src/islands/playground/run.test.tsx', "import { createApp } from '../../../server/app';"],
  ['src/lib/sdk/extra.ts', "import { openDatabase } from '../../../server/db';"],
  ['src/lib/stores/modals.ts', "import { validateTts } from '../../islands/playground/validate';"],
  ['src/lib/tracking/site.ts', "import { createTrackingWorker } from '../../worker/tracking-api';"],
  ['src/lib/tracking/tracker.ts', "export * from '../../worker/tracking-api';"],
  ['src/lib/tracking/tracker.ts', "import type { WorkerStatus } from '../../worker/tracking-api';"],
  ['server/routes/public-api.ts', "import { createDreamApiClient } from '../../src/lib/sdk/index';"],
  ['server/sdk/client.test.ts', "import { createDreamApiClient } from '../../src/lib/sdk';"],
  ['src/islands/playground/code-panel/sdk-sample.ts', "import { OPERATIONS } from '../../../lib/sdk';"],
  ['server/routes/tracking.ts', "import { sealEntries } from '../../src/lib/tracking/cipher';"],
  ['server/app.ts', "import { login } from '../src/lib/api/accounts';"],
  ['server/tasks/views.ts', "import ModalHost from '../../src/islands/modals/ModalHost';"],
  ['server/sdk/client.test.ts', "import { session } from '../../src/lib/stores/signed-in';"],
  ['server/routes/public-api.ts', "import { PUBLIC_TOOLS } from '../../src/lib/product-rules/tasks';"],
  ['server/tasks/runner.test.ts', "import { quote } from '../../src/lib/product-rules/pricing/quote';"],
  ['src/islands/playground/pricing.ts', "import type { Feature } from '../../lib/product-rules/pricing';"],
  ['src/lib/tracking/tracker.ts', "import { STASH_PREFIX } from '../product-rules/tracking';"],
  ['src/lib/api-contract/errors.ts', "import { ERROR_CODES } from '../product-rules/errors';"],
  ['tests/structure/voices.test.ts', "import { VOICES } from '../../src/lib/product-rules/voices';"],
  ['bench/tasks.mjs', "import { TASK_LIMITS } from '../src/lib/product-rules/limits.ts';"],
];

const allowed: Array<[file: string, code: string]> = [
  ['src/components/reference/model.ts', "import { buildOpenApiDocument } from '../../lib/api-contract';"],
  [
    'src/islands/modals/after-login.test.tsx',
    "import { createAccountsTestApp } from '../../../server/test-support/accounts';",
  ],
  ['src/lib/tracking/tracker.ts', "import type { WorkerStatus } from './types';"],
  ['src/worker/tracking-api.ts', "import { TrackingEngine } from '../lib/tracking/engine';"],
  ['server/openapi/route.ts', "import { buildOpenApiDocument } from '../../src/lib/api-contract';"],
  ['server/routes/public-api.ts', "import { PUBLIC_TOOLS } from '../../src/lib/product-rules';"],
  ['server/app.ts', "import { ERROR_CODES } from '../src/lib/product-rules';"],
  ['src/lib/tracking/tracker.ts', "import { STASH_PREFIX } from '../product-rules';"],
  ['src/lib/product-rules/pricing/quote.ts', "import { priceItem } from './prices';"],
  ['src/lib/product-rules/limits.ts', "import type { Feature } from './pricing';"],
  ['src/lib/product-rules/index.ts', "export * from './pricing';"],
  ['tests/structure/voices.test.ts', "import { VOICES } from '../../src/lib/product-rules/index';"],
  ['server/routes/accounts.ts', "import type { Me } from '../../src/lib/api/types';"],
  ['server/sdk/webhooks.test.ts', "import { verifyWebhook } from '../../src/lib/sdk/index';"],
  ['server/routes/tracking.test.ts', "import { sealEntries } from '../../src/lib/tracking/cipher';"],
];

describe('import boundaries', () => {
  it.each(forbidden)('%s: `%s` is reported', async (file, code) => {
    expect(await boundaryMessages(file, code)).toHaveLength(1);
  });

  it.each(allowed)('%s: `%s` is allowed', async (file, code) => {
    expect(await boundaryMessages(file, code)).toEqual([]);
  });
});

/** The import and export-from statements of an .astro file's frontmatter and <script> blocks. */
function astroImports(text: string): string[] {
  const code = [
    /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '',
    ...[...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!),
  ];
  return code.flatMap((block) =>
    [...block.matchAll(/^\s*(?:import|export)\b[^;]*?['"][^'"\n]+['"];?/gm)].map((m) => m[0].trim()),
  );
}

describe('.astro files', () => {
  const files = filesUnder(['src'], /\.astro$/);

  it('are found, with their imports', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(
      astroImports(readFileSync(join(ROOT, 'src/components/ReferenceOverview.astro'), 'utf8')).join('\n'),
    ).toContain("from '../lib/api-contract'");
  });

  it('import nothing across a boundary', async () => {
    const problems: string[] = [];
    for (const file of files) {
      const imports = astroImports(readFileSync(join(ROOT, file), 'utf8'));
      for (const message of await boundaryMessages(`${file}.ts`, imports.join('\n')))
        problems.push(`${file}: ${message}`);
    }
    expect(problems).toEqual([]);
  });

  it('would be reported for a server import in the frontmatter', async () => {
    const text =
      "---\nimport Layout from '../layouts/BaseLayout.astro';\nimport { errorRows } from '../../server/openapi';\n---\n<Layout />";
    expect(await boundaryMessages('src/pages/errors.astro.ts', astroImports(text).join('\n'))).toHaveLength(1);
  });
});
