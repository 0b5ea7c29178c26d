// Prepares the embedded default: applies database migrations and makes every model in the
// manifests available (checksummed) under MODELS_DIR. Safe to run repeatedly.
import { applyMigrations } from '../lib/db/migrate';
import { env } from '../lib/env';
import { prepareModels } from './models/prepare';
import { preparePromptModels } from './models/prepare-prompt-models';
import { ensureSecret } from '../lib/secret';

const e = env();
const applied = applyMigrations(e.databaseUrl);
console.log(
  applied.length ? `› Applied migrations: ${applied.join(', ')}` : '› Database is up to date.',
);
ensureSecret();
await prepareModels((line) => console.log(`› ${line}`));
await preparePromptModels((line) => console.log(`› ${line}`));

// The landing page's and the Studio's sample clip: drawn by ffmpeg and cut out here, once.
// Optional: without it those pages simply offer no sample.
try {
  const { prepareSampleClip } = await import('../lib/media/sample-clip');
  const { remove } = await import('../lib/cli/remove');
  await prepareSampleClip(
    async (clip, out) => {
      const code = await remove([clip, '-o', out, '--model', 'service-light']);
      if (code !== 0) throw new Error(`keyout remove exited with ${code}`);
    },
    (line) => console.log(`› ${line}`),
  );
} catch (e) {
  console.warn(
    '› The sample clip could not be made ' +
      `(${e instanceof Error ? e.message : String(e)}); the site ` +
      'works without it.',
  );
}
