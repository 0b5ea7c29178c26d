// Prepares the embedded default: applies database migrations and makes every model in the
// manifests available (checksummed) under MODELS_DIR. Safe to run repeatedly.
import { applyMigrations } from '../lib/db/migrate';
import { env } from '../lib/env';
import { prepareModels } from '../lib/models/prepare';
import { preparePromptModels } from '../lib/models/prepare-prompt-models';
import { ensureSecret } from '../lib/secret';

const e = env();
const applied = applyMigrations(e.databaseUrl);
console.log(applied.length ? `› Applied migrations: ${applied.join(', ')}` : '› Database is up to date.');
ensureSecret();
await prepareModels((line) => console.log(`› ${line}`));
await preparePromptModels((line) => console.log(`› ${line}`));
