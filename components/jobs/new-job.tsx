'use client';

import { useEffect, useRef, useState } from 'react';
import { createUploadAction, discardUploadAction } from '@/app/(dashboard)/jobs/actions';
import { Button } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { Dropzone } from '@/components/ui/dropzone';
import { ProgressBar } from '@/components/ui/progress';
import { formatBytes } from '@/components/format';
import { StartForm } from './start/start-form';
import { uploadWithProgress } from './upload';

type Upload = { key: number; name: string; size: number; jobId: string | null } & (
  | { state: 'uploading'; loaded: number; abort: AbortController }
  | { state: 'uploaded' }
  | { state: 'failed'; error: string; file: File }
);

const ACCEPT =
  'video/mp4,video/quicktime,video/webm,video/x-msvideo,' +
  'video/x-matroska,.mp4,.mov,.m4v,.webm,.avi,.mkv';

/**
 * New job: drop or pick one or more videos (each becomes a job of its own, uploaded straight to
 * storage with its progress), then one set of options and one quote for all of them. A file
 * that is refused, removed or cancelled takes its job with it, so nothing is left behind.
 */
export function NewJob({
  maxUploadBytes,
  uploaded,
}: {
  maxUploadBytes: number;
  /** A job whose video is already uploaded (e.g. sent over from the Studio). */
  uploaded?: { jobId: string; name: string; size: number };
}) {
  const [uploads, setUploads] = useState<Upload[]>(
    uploaded
      ? [
          {
            key: 0,
            name: uploaded.name,
            size: uploaded.size,
            jobId: uploaded.jobId,
            state: 'uploaded',
          },
        ]
      : [],
  );
  const nextKey = useRef(1);
  const live = useRef(uploads);
  useEffect(() => {
    live.current = uploads;
  });

  // Leaving the page cancels uploads still running.
  useEffect(
    () => () => live.current.forEach((u) => u.state === 'uploading' && u.abort.abort()),
    [],
  );

  const update = (key: number, next: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.key === key ? ({ ...u, ...next } as Upload) : u)));

  async function send(file: File, key = nextKey.current++) {
    const abort = new AbortController();
    const base = { key, name: file.name, size: file.size, jobId: null };
    setUploads((all) => [
      ...all.filter((u) => u.key !== key),
      { ...base, state: 'uploading', loaded: 0, abort },
    ]);
    if (file.size > maxUploadBytes) {
      return update(key, {
        state: 'failed',
        file,
        error: `It is ${formatBytes(file.size)}; the limit is ${formatBytes(maxUploadBytes)}.`,
      });
    }
    const created = await createUploadAction(file.name, file.type || 'video/mp4', file.size).catch(
      () => null,
    );
    if (!created || !created.ok)
      return update(key, {
        state: 'failed',
        file,
        error: created?.error ?? 'The server could not be reached.',
      });
    update(key, { jobId: created.jobId });
    try {
      await uploadWithProgress(
        created.uploadUrl,
        file,
        created.headers,
        (loaded) => update(key, { loaded }),
        abort.signal,
      );
      update(key, { state: 'uploaded' });
    } catch (err) {
      // A refused or cancelled upload leaves no job behind.
      void discardUploadAction(created.jobId).catch(() => undefined);
      if ((err as Error).name === 'AbortError')
        setUploads((all) => all.filter((u) => u.key !== key));
      else update(key, { state: 'failed', file, error: (err as Error).message, jobId: null });
    }
  }

  function remove(u: Upload) {
    if (u.state === 'uploading') return u.abort.abort();
    if (u.jobId) void discardUploadAction(u.jobId).catch(() => undefined);
    setUploads((all) => all.filter((x) => x.key !== u.key));
  }

  const busy = uploads.some((u) => u.state === 'uploading');
  const ready = uploads.flatMap((u) =>
    u.state === 'uploaded' && u.jobId ? [{ jobId: u.jobId, name: u.name }] : [],
  );

  return (
    <div className="space-y-6">
      <Card>
        <CardTitle
          description={
            'MP4, MOV, WebM, AVI, MKV or M4V, up to 1 GB each. Drop several ' +
            'to make one job each with the same settings.'
          }
        >
          1. Your videos
        </CardTitle>
        <Dropzone
          accept={ACCEPT}
          label={uploads.length ? 'Add more videos' : 'Choose videos'}
          hint={
            `Up to ${formatBytes(maxUploadBytes)} each. They go straight to ` +
            'storage over a signed URL.'
          }
          onFiles={(files) => files.forEach((f) => void send(f))}
        />
        {uploads.length ? (
          <ul className="mt-4 space-y-3" aria-label="Uploads">
            {uploads.map((u) => (
              <UploadItem
                key={u.key}
                upload={u}
                onRetry={(file) => void send(file, u.key)}
                onRemove={() => remove(u)}
              />
            ))}
          </ul>
        ) : null}
      </Card>
      <StartForm targets={busy ? [] : ready} />
      {busy ? (
        <p className="sr-only" aria-live="polite">
          Waiting for the uploads to finish.
        </p>
      ) : null}
    </div>
  );
}

/** One video of the list: its name, how far its upload got, and its retry and remove buttons. */
function UploadItem({
  upload: u,
  onRetry,
  onRemove,
}: {
  upload: Upload;
  onRetry: (file: File) => void;
  onRemove: () => void;
}) {
  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="upload-item">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium text-slate-900" title={u.name}>
            {u.name}
          </p>
          <p className="text-sm text-slate-600">
            {u.state === 'uploading'
              ? `Uploading… ${formatBytes(u.loaded)} of ${formatBytes(u.size)}`
              : u.state === 'uploaded'
                ? `${formatBytes(u.size)} · uploaded`
                : `${formatBytes(u.size)} · not uploaded`}
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          {u.state === 'failed' ? (
            <Button variant="secondary" size="sm" onClick={() => onRetry(u.file)}>
              Try again<span className="sr-only"> uploading {u.name}</span>
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onClick={onRemove}>
            {u.state === 'uploading' ? 'Cancel' : 'Remove'}
            <span className="sr-only"> {u.name}</span>
          </Button>
        </div>
      </div>
      {u.state === 'failed' ? (
        <div className="mt-3">
          <Alert tone="error">This file was not uploaded: {u.error}</Alert>
        </div>
      ) : (
        <div className="mt-3">
          <ProgressBar
            value={u.state === 'uploading' ? u.loaded / Math.max(1, u.size) : 1}
            label={`Upload progress of ${u.name}`}
          />
        </div>
      )}
    </li>
  );
}
