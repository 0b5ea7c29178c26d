import { useState } from 'react';
import type { StudioBackground } from '@/workers/browser/studio-encoder';
import type { StudioOpaque } from '@/workers/browser/studio-pipeline';

/**
 * What the run makes: the transparent cut-out only, or also the subject on a background as MP4 or
 * WebM.
 */
export type StudioOutput = 'cutout' | 'mp4' | 'webm';
export const OUTPUTS: { id: StudioOutput; label: string }[] = [
  { id: 'cutout', label: 'Transparent WebM (VP9 with alpha)' },
  { id: 'mp4', label: 'MP4 (H.264) on a background' },
  { id: 'webm', label: 'WebM (VP9) on a background' },
];
export type BackgroundChoice = 'color' | 'image' | 'blur';

/** The studio's result, and for an MP4 or WebM the background put behind the subject. */
export function useStudioOutput() {
  const [output, setOutput] = useState<StudioOutput>('cutout');
  const [backgroundChoice, setBackgroundChoice] = useState<BackgroundChoice>('color');
  const [outputColor, setOutputColor] = useState('#22c55e');
  const [backgroundImage, setBackgroundImage] = useState<
    { name: string; bitmap: ImageBitmap } | { error: string } | null
  >(null);

  /**
   * The run's opaque result, or null for the cut-out alone (and while a background image is
   * missing).
   */
  function opaqueOf(): StudioOpaque | null {
    if (output === 'cutout') return null;
    const background: StudioBackground | null =
      backgroundChoice === 'color'
        ? { kind: 'color', color: outputColor }
        : backgroundChoice === 'blur'
          ? { kind: 'blur' }
          : backgroundImage && 'bitmap' in backgroundImage
            ? { kind: 'image', image: backgroundImage.bitmap }
            : null;
    return background ? { container: output, background } : null;
  }
  const needsImage =
    output !== 'cutout' &&
    backgroundChoice === 'image' &&
    !(backgroundImage && 'bitmap' in backgroundImage);

  async function pickImage(picked: File | undefined) {
    if (!picked) return setBackgroundImage(null);
    try {
      setBackgroundImage({ name: picked.name, bitmap: await createImageBitmap(picked) });
    } catch {
      setBackgroundImage({
        error: `${picked.name} is not a picture this browser can read. Choose a PNG, JPEG or WebP.`,
      });
    }
  }

  return {
    output,
    setOutput,
    backgroundChoice,
    setBackgroundChoice,
    outputColor,
    setOutputColor,
    backgroundImage,
    pickImage,
    opaqueOf,
    needsImage,
  };
}

export type StudioOutputState = ReturnType<typeof useStudioOutput>;
