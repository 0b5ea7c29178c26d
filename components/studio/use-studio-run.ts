import { useCallback, useEffect, useRef, useState } from 'react';
import { useObjectUrl } from '@/components/media/use-object-url';
import type { ApiModel } from '@/engine/api-models';
import type { BackendChoice, PeopleModel } from '@/workers/browser/client';
import {
  runStudio,
  StudioError,
  type StudioProgress,
  type StudioResult,
  type StudioStarted,
} from '@/workers/browser/studio-pipeline';
import { saveRun } from './history-db';
import type { StudioOutputState } from './use-studio-output';

export type Phase =
  | { kind: 'idle' }
  | {
      kind: 'running';
      firstFrameOnly: boolean;
      progress: StudioProgress | null;
      started: StudioStarted | null;
    }
  | { kind: 'done'; result: StudioResult; url: string; firstFrameOnly: boolean }
  | { kind: 'failed'; message: string; serverCanHelp: boolean };

/**
 * One run of the pipeline in this tab (the whole video or its first frame): its phase, a live
 * preview drawn on `preview`, cancelling, and the finished video saved to this browser's history.
 */
export function useStudioRun({
  file,
  model,
  backend,
  people,
  output,
}: {
  file: File | null;
  model: ApiModel;
  backend: BackendChoice | null;
  people: PeopleModel | null;
  output: StudioOutputState;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [historyKey, setHistoryKey] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const preview = useRef<HTMLCanvasElement>(null);

  // Free the result's object URLs when it is replaced or the page goes away.
  const doneUrl = phase.kind === 'done' ? phase.url : null;
  useEffect(() => () => (doneUrl ? URL.revokeObjectURL(doneUrl) : undefined), [doneUrl]);
  const cutoutUrl = useObjectUrl(
    phase.kind === 'done' && phase.result.file !== phase.result.cutout.file
      ? phase.result.cutout.file
      : null,
  );
  useEffect(() => () => abort.current?.abort(), []);

  const drawPreview = useCallback((frame: ImageData) => {
    const c = preview.current;
    if (!c) return;
    if (c.width !== frame.width || c.height !== frame.height) {
      c.width = frame.width;
      c.height = frame.height;
    }
    c.getContext('2d')?.putImageData(frame, 0, 0);
  }, []);

  async function run(firstFrameOnly: boolean) {
    if (!file || !backend || output.needsImage) return;
    abort.current = new AbortController();
    setNotice(null);
    setPhase({ kind: 'running', firstFrameOnly, progress: null, started: null });
    try {
      const result = await runStudio({
        file,
        model,
        backend,
        people,
        opaque: output.opaqueOf(),
        signal: abort.current.signal,
        maxFrames: firstFrameOnly ? 1 : undefined,
        onFallback: setNotice,
        onStarted: (started) => setPhase((p) => (p.kind === 'running' ? { ...p, started } : p)),
        onProgress: (progress) => setPhase((p) => (p.kind === 'running' ? { ...p, progress } : p)),
        onPreview: drawPreview,
      });
      const url = URL.createObjectURL(firstFrameOnly ? result.thumbnail : result.file);
      setPhase({ kind: 'done', result, url, firstFrameOnly });
      if (!firstFrameOnly) {
        await saveRun({
          id: crypto.randomUUID(),
          name: file.name,
          createdAt: Date.now(),
          model,
          backend: result.backend,
          frames: result.frames,
          width: result.width,
          height: result.height,
          durationSeconds: result.durationSeconds,
          totalMs: result.totalMs,
          webm: result.file,
          thumbnail: result.thumbnail,
        }).catch(() =>
          setNotice(
            'The result could not be saved to this browser’s history ' +
              '(storage may be full or disabled).',
          ),
        );
        setHistoryKey((k) => k + 1);
      }
    } catch (err) {
      if ((err as Error).name === 'AbortError' || abort.current.signal.aborted) {
        setPhase({ kind: 'idle' });
        setNotice('Cancelled. Nothing was saved.');
        return;
      }
      const serverCanHelp = err instanceof StudioError ? err.serverCanHelp : true;
      const message =
        (err as Error).name === 'WorkerCrashedError'
          ? `The processing worker stopped (${(err as Error).message}). ` +
            'Long or large videos can exceed this browser’s memory.'
          : (err as Error).message || 'Processing failed.';
      setPhase({ kind: 'failed', message, serverCanHelp });
    }
  }

  return {
    phase,
    notice,
    historyKey,
    preview,
    doneUrl,
    cutoutUrl,
    run,
    cancel: () => abort.current?.abort(),
    reset: () => setPhase({ kind: 'idle' }),
  };
}

export type StudioRun = ReturnType<typeof useStudioRun>;
