'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';

export const SAMPLE_CLIP_URL = '/sample/keyout-sample.mp4';

/**
 * "Use the sample clip": fetches the sample (drawn by ffmpeg at prepare time, see
 * lib/media/sample-clip.ts) from our own origin and hands it over as a File, as if picked.
 */
export function SampleClipButton({ onFile }: { onFile: (file: File) => void }) {
  const [state, setState] = useState<'idle' | 'loading' | 'missing'>('idle');
  if (state === 'missing')
    return <p className="mt-4 text-xs text-slate-600">This server has no sample clip.</p>;
  return (
    <div className="mt-4">
      <Button
        variant="secondary"
        size="sm"
        disabled={state === 'loading'}
        onClick={async () => {
          setState('loading');
          const res = await fetch(SAMPLE_CLIP_URL).catch(() => null);
          if (!res?.ok) return setState('missing');
          onFile(new File([await res.blob()], 'keyout-sample.mp4', { type: 'video/mp4' }));
          setState('idle');
        }}
      >
        {state === 'loading' ? 'Loading the sample…' : 'No video at hand? Use the sample clip'}
      </Button>
    </div>
  );
}
