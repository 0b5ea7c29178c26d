import { DEFAULT_FORMAT } from '../../engine/formats';
import { CONTAINERS, MODELS, TRANSPARENT_FORMATS } from './job-options';

/** The start options a job was given, as stored (the API's background object). */
export interface StartedWith {
  model: string | null;
  outputFormat: string | null;
  background: {
    type?: string;
    color?: string | null;
    blur_mode?: string | null;
    composition?: { background_type?: string | null } | null;
  } | null;
}

export const modelName = (id: string | null): string | null =>
  id ? (MODELS.find((m) => m.id === id)?.name ?? id) : null;

const short = (label: string) => label.split(' — ')[0]!;

/**
 * "WebM (VP9 with alpha)", "On #22C55E · MP4 (H.264)", "Blurred background · MOV"; null before a
 * start.
 */
export function describeOutput({ model, outputFormat, background }: StartedWith): string | null {
  if (!model) return null;
  const container = CONTAINERS.find((c) => c.id === outputFormat)?.label ?? outputFormat ?? 'MP4';
  switch (background?.type) {
    case 'color':
      return `On ${background.color?.toUpperCase() ?? 'a colour'} · ${container}`;
    case 'composition':
      return (
        'On ' +
        `${background.composition?.background_type === 'video' ? 'a video' : 'an image'} ` +
        `· ${container}`
      );
    case 'blur':
      return (
        'Blurred ' +
        `${background.blur_mode === 'subject' ? 'subject' : 'background'} ` +
        `· ${container}`
      );
    default: {
      const format = outputFormat ?? DEFAULT_FORMAT;
      const known = TRANSPARENT_FORMATS.find((f) => f.id === format);
      return known ? short(known.label) : format;
    }
  }
}
