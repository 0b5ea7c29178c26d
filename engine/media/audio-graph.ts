import { backgroundInput } from './render-graph';
import type { RenderPlanInput } from './render-input';

interface AudioGraph {
  filters: string[];
  label: string;
}

export function backgroundAudio(p: RenderPlanInput): { volume: number } | null {
  const r = p.recipe;
  if (r.kind !== 'composition' || !r.backgroundAudio) return null;
  if (p.background?.kind !== 'video' || !p.background.info.hasAudio) return null;
  return { volume: Math.max(0, r.backgroundAudioVolume) };
}

/**
 * The source's first audio track (and, for compositions, the background's, at its volume),
 * trimmed to the video's length and reversed with it. Mixed without amix's level
 * normalisation so the source keeps its loudness.
 */
export function audioGraph(p: RenderPlanInput, duration: number, reverse: boolean): AudioGraph {
  const d = duration.toFixed(6);
  const rev = reverse ? ',areverse' : '';
  const bg = backgroundAudio(p);
  const parts: string[] = [];
  const labels: string[] = [];
  if (p.info.hasAudio) {
    parts.push(`[0:a:0]atrim=duration=${d},aresample=48000[a_src]`);
    labels.push('[a_src]');
  }
  if (bg) {
    parts.push(
      `[${backgroundInput(p)}:a:0]aresample=48000,volume=${bg.volume},atrim=duration=${d}[a_bg]`,
    );
    labels.push('[a_bg]');
  }
  if (labels.length === 2) {
    parts.push(`${labels.join('')}amix=inputs=2:duration=longest:normalize=0${rev}[aout]`);
  } else {
    parts.push(`${labels[0]}anull${rev}[aout]`);
  }
  return { filters: parts, label: '[aout]' };
}
