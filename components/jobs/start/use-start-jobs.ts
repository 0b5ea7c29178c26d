import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { startJobAction } from '@/app/(dashboard)/jobs/actions';
import type { StartField } from '@/lib/services/jobs/start-errors';
import { startRequest } from '../job-options';
import type { StartOptions } from './use-start-options';

/**
 * Sends the chosen image to the job's storage (app/(dashboard)/jobs/[id]/background); its key goes
 * into the start.
 */
async function uploadBackground(
  jobId: string,
  file: File,
): Promise<{ ok: true; key: string } | { ok: false; error: string; field: StartField }> {
  const res = await fetch(`/jobs/${jobId}/background`, {
    method: 'POST',
    body: file,
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
  });
  const body = (await res.json().catch(() => ({}))) as {
    key?: string;
    error?: string;
    details?: string;
  };
  if (res.ok && body.key) return { ok: true, key: body.key };
  const error = body.error
    ? `${body.error}${body.details && res.status !== 400 ? ` ${body.details}` : ''}`
    : `The image could not be uploaded (HTTP ${res.status}).`;
  return { ok: false, error, field: 'bg-file' };
}

/**
 * Starts the jobs one after the other with the chosen options, then opens the job (or the list);
 * a refusal is shown by the field it is about, and that field gets the focus.
 */
export function useStartJobs(jobIds: string[], options: StartOptions) {
  const router = useRouter();
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<{ error: string; field?: StartField } | null>(null);
  const [started, setStarted] = useState(0);
  const fieldRefs = useRef<Partial<Record<StartField, HTMLInputElement | null>>>({});
  const { model, outKind, mediaFile, mediaUrl, webhookUrl } = options;

  function showError(e: { error: string; field?: StartField }) {
    setStartError(e);
    if (e.field) fieldRefs.current[e.field]?.focus();
  }

  async function start() {
    if (!jobIds.length) return;
    if (outKind === 'media' && !mediaFile && !mediaUrl.trim())
      return showError({
        error: 'Enter the address of the background image or video, or upload an image.',
        field: 'bg-url',
      });
    setStarting(true);
    setStartError(null);
    const chosen = options.choice();
    type Outcome = { ok: true } | { ok: false; error: string; field?: StartField };
    const unreachable = {
      ok: false as const,
      error: 'The server could not be reached. Try again.',
    };
    async function startOne(jobId: string): Promise<Outcome> {
      let background = chosen;
      // An uploaded image goes into each job's own storage, so it is deleted with the job.
      if (chosen.kind === 'media' && mediaFile) {
        const uploaded = await uploadBackground(jobId, mediaFile);
        if (!uploaded.ok) return uploaded;
        background = { ...chosen, key: uploaded.key };
      }
      return startJobAction(jobId, startRequest(model, background, webhookUrl));
    }
    // One job after the other, so a refusal (e.g. a bad URL) stops before the rest are charged.
    for (const [i, jobId] of jobIds.entries()) {
      const r = await startOne(jobId).catch((): Outcome => unreachable);
      if (!r.ok) {
        setStarting(false);
        const done = i ? ` ${i} of ${jobIds.length} videos were started; the rest were not.` : '';
        return showError({ error: `${r.error}${done}`, field: r.field });
      }
      setStarted(i + 1);
    }
    router.push(jobIds.length === 1 ? `/jobs/${jobIds[0]}` : '/jobs?status=processing');
    router.refresh();
  }

  return {
    start,
    starting,
    started,
    startError,
    fieldError: (f: StartField) => (startError?.field === f ? startError.error : undefined),
    /** A ref for the input of a field, so a refusal about it can focus it. */
    fieldRef: (f: StartField) => (el: HTMLInputElement | null) => {
      fieldRefs.current[f] = el;
    },
    /** A new pick of the background answers the refusal of the one before. */
    clearBackgroundError: () => {
      if (startError?.field === 'bg-file' || startError?.field === 'bg-url') setStartError(null);
    },
  };
}

export type StartJobs = ReturnType<typeof useStartJobs>;
