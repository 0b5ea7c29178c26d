import type { TierName } from './tiers';

/**
 * The one list of API models. A model is one row: everything else (pricing, the request schema
 * and its aliases, the OpenAPI enum, the dashboard, the studio, the CLI) derives from it.
 */
export interface ApiModelRow {
  id: string;
  /** Other names clients send for it (the hosted service's vendor-prefixed names). */
  aliases: readonly string[];
  /** Short name in the dashboard. */
  label: string;
  /** What it is good for, in a sentence. */
  summary: string;
  /** Credits per second of video at standard frame rates (spec, "What the service does"). */
  creditsPerSecond: number;
  /** The engine configuration it runs (engine/tiers.ts). */
  tier: TierName;
  /** Whether the in-browser studio offers it (fast enough on a laptop CPU). */
  browser: boolean;
  /** Whether a mask refinement by text prompt may run on it (spec, refine-mask `model`). */
  textPrompts: boolean;
  /**
   * Whether its renders estimate the subject's own colour in the soft edges (docs/outputs.md,
   * "Edge colours"). Off where the estimate does not pay: the people tier's matte is too wide
   * for it to help (0.8-1.4 of passing the filmed colour through), and the render would cost
   * several times its segmentation.
   */
  edgeColour: boolean;
}

export const API_MODEL_ROWS = [
  {
    id: 'service-original',
    aliases: ['videobgremover-original'],
    label: 'Original',
    summary: 'High quality, detailed edges, any subject.',
    creditsPerSecond: 1,
    tier: 'original',
    browser: true,
    textPrompts: true,
    edgeColour: true,
  },
  {
    id: 'service-human',
    aliases: ['videobgremover-human'],
    label: 'Human',
    summary: 'Fast matting tuned for people and portraits.',
    creditsPerSecond: 0.75,
    tier: 'human',
    browser: true,
    textPrompts: false,
    edgeColour: false,
  },
  {
    id: 'service-light',
    aliases: ['videobgremover-light'],
    label: 'Light',
    summary: 'Fastest for any subject; good for previews and simple scenes.',
    creditsPerSecond: 0.75,
    tier: 'light',
    browser: true,
    textPrompts: false,
    edgeColour: true,
  },
  {
    id: 'service-pro',
    aliases: ['videobgremover-pro'],
    label: 'Pro',
    summary: 'Every frame through the full model, for complex objects and fine detail. Slowest.',
    creditsPerSecond: 3,
    tier: 'pro',
    browser: false,
    textPrompts: true,
    edgeColour: true,
  },
] as const satisfies readonly ApiModelRow[];

export type ApiModel = (typeof API_MODEL_ROWS)[number]['id'];
export const API_MODELS = API_MODEL_ROWS.map((m) => m.id) as [ApiModel, ...ApiModel[]];
/** The model a start request without `model` gets. */
export const DEFAULT_MODEL: ApiModel = 'service-original';

export function isApiModel(v: string): v is ApiModel {
  return (API_MODELS as readonly string[]).includes(v);
}

export function apiModel(id: ApiModel): ApiModelRow {
  return API_MODEL_ROWS.find((m) => m.id === id)!;
}

/** An id or alias → the model it names, or null. */
export function resolveApiModel(name: string): ApiModel | null {
  return (
    API_MODEL_ROWS.find((m) => m.id === name || (m.aliases as readonly string[]).includes(name))
      ?.id ?? null
  );
}
