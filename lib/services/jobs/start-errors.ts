import { ZodError } from 'zod';
import { inWords, sentence, ServiceError } from '../../errors';

/** The form fields a start error can belong to (ids of the inputs on the page). */
export type StartField = 'bg-url' | 'bg-file' | 'color' | 'webhook';

/** API field paths as the dashboard's form names them, with what to say when they are refused. */
const FIELDS: { path: string; field: StartField; invalid: string; refused: string }[] = [
  {
    path: 'background.composition.background_url',
    field: 'bg-url',
    invalid: 'Enter the full address of an image or video, starting with https://.',
    refused: 'This background cannot be used',
  },
  {
    path: 'background.color',
    field: 'color',
    invalid: 'Pick a colour, or type it as #RRGGBB.',
    refused: 'This colour cannot be used',
  },
  {
    path: 'webhook_url',
    field: 'webhook',
    invalid: 'Enter the full address of your webhook, starting with https://.',
    refused: 'This webhook address cannot be used',
  },
];

/**
 * A failed start in words, next to the field it is about: API paths such as
 * "background.composition.background_url: must be an http(s) URL" become "Enter the full
 * address of an image or video…" under the background URL box.
 */
export function startErrorInWords(err: ServiceError | ZodError): {
  error: string;
  field?: StartField;
} {
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const path = issue?.path.map(String).join('.') ?? '';
    const known = FIELDS.find((f) => path === f.path || path.startsWith(`${f.path}.`));
    if (known) return { error: known.invalid, field: known.field };
    return { error: sentence(issue?.message ?? 'The request was not valid') };
  }
  // Services name the API field first ("webhook_url is not allowed: …"); the reason follows.
  const known = FIELDS.find((f) => err.message.startsWith(`${f.path} `));
  if (known) {
    const reason = err.details ?? err.message.slice(err.message.indexOf(':') + 1).trim();
    return { error: `${known.refused}: ${sentence(reason)}`, field: known.field };
  }
  return { error: inWords(err) };
}
