import { API_MODEL_ROWS } from '../../engine/api-models';
import { containerNamed, DEFAULT_FORMAT, OUTPUT_FORMATS } from '../../engine/formats';
import type { Background } from '../../lib/schemas/background';

/** What the new-job form offers, and how its choices become a /v1 start request body. */

export const MODELS = API_MODEL_ROWS.map((m) => ({
  id: m.id,
  name: m.label,
  rate: m.creditsPerSecond,
  blurb: m.summary,
}));

const formats = (family: 'transparent' | 'opaque') =>
  OUTPUT_FORMATS.filter((f) => f.family === family).map((f) => ({ id: f.id, label: f.label }));
export const TRANSPARENT_FORMATS = formats('transparent');
export const CONTAINERS = formats('opaque');

export type BackgroundChoice =
  | { kind: 'transparent'; format: string }
  | { kind: 'color'; color: string; container: string }
  /** `key`: an image uploaded into the job's storage (dashboard only), used instead of `url`. */
  | { kind: 'media'; url: string; key?: string; mediaType: 'image' | 'video'; container: string }
  | { kind: 'blur'; mode: 'background' | 'subject'; intensity: number; container: string };

export function backgroundOf(choice: BackgroundChoice): Record<string, unknown> | undefined {
  switch (choice.kind) {
    case 'transparent':
      // The default output (no background) is the transparent WebM; other formats say so.
      return choice.format === DEFAULT_FORMAT
        ? undefined
        : { type: 'transparent', transparent_format: choice.format };
    case 'color':
      return {
        type: 'color',
        color: choice.color,
        composition: { export_format: choice.container },
      };
    case 'media':
      return {
        type: 'composition',
        composition: choice.key
          ? {
              background_key: choice.key,
              background_type: 'image',
              export_format: choice.container,
            }
          : {
              background_url: choice.url,
              background_type: choice.mediaType,
              export_format: choice.container,
            },
      };
    case 'blur':
      return {
        type: 'blur',
        blur_mode: choice.mode,
        blur_intensity: choice.intensity,
        composition: { export_format: choice.container },
      };
  }
}

export function startRequest(
  model: string,
  choice: BackgroundChoice,
  webhookUrl: string,
): Record<string, unknown> {
  const background = backgroundOf(choice);
  return {
    model,
    ...(background ? { background } : {}),
    ...(webhookUrl.trim() ? { webhook_url: webhookUrl.trim() } : {}),
  };
}

/** The form's choice for a stored background (the inverse of backgroundOf), to offer again. */
export function choiceOf(b: Background | null): BackgroundChoice {
  if (!b) return { kind: 'transparent', format: DEFAULT_FORMAT };
  const container = containerNamed(b.composition?.export_format ?? 'mp4');
  switch (b.type) {
    case 'color':
      return { kind: 'color', color: b.color?.slice(0, 7) ?? '#22c55e', container };
    case 'composition':
      return {
        kind: 'media',
        url: b.composition?.background_url ?? '',
        mediaType: b.composition?.background_type === 'video' ? 'video' : 'image',
        container,
      };
    case 'blur':
      return {
        kind: 'blur',
        mode: b.blur_mode === 'subject' ? 'subject' : 'background',
        intensity: b.blur_intensity ?? 50,
        container,
      };
    case 'transparent':
      return { kind: 'transparent', format: b.transparent_format ?? DEFAULT_FORMAT };
  }
}
