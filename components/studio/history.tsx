'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardTitle, EmptyState } from '@/components/ui/card';
import { formatBytes, formatDate, formatSeconds } from '@/components/format';
import { deleteRun, listRuns, type StudioRecord } from './history-db';

type Row = StudioRecord & { thumbUrl: string; webmUrl: string };

/** Past Studio results kept in this browser (IndexedDB): re-download or delete them. */
export function StudioHistory({ refreshKey }: { refreshKey: number }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let made: Row[] = [];
    listRuns().then(
      (runs) => {
        made = runs.map((r) => ({
          ...r,
          thumbUrl: URL.createObjectURL(r.thumbnail),
          webmUrl: URL.createObjectURL(r.webm),
        }));
        setRows(made);
      },
      () =>
        setError(
          'This browser does not allow local storage here (private ' +
            'mode?), so results are not kept.',
        ),
    );
    return () =>
      made.forEach((r) => (URL.revokeObjectURL(r.thumbUrl), URL.revokeObjectURL(r.webmUrl)));
  }, [refreshKey]);

  async function remove(id: string) {
    await deleteRun(id);
    setRows((rs) => rs?.filter((r) => r.id !== id) ?? null);
  }

  return (
    <Card>
      <CardTitle description="Kept only in this browser. Clearing site data removes them.">
        Your recent results
      </CardTitle>
      {error ? (
        <p className="text-sm text-slate-600">{error}</p>
      ) : rows === null ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : rows.length === 0 ? (
        <EmptyState title="Nothing here yet">
          Results you process in the Studio appear here, ready to download again.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="studio-history">
          {rows.map((r) => (
            <li key={r.id} className="overflow-hidden rounded-lg border border-slate-200">
              <div className="checkerboard aspect-video">
                {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL */}
                <img src={r.thumbUrl} alt="" className="h-full w-full object-contain" />
              </div>
              <div className="space-y-2 p-3">
                <p className="truncate text-sm font-medium text-slate-900" title={r.name}>
                  {r.name}
                </p>
                <p className="text-xs text-slate-500">
                  {formatDate(new Date(r.createdAt))} · {formatSeconds(r.durationSeconds)} ·{' '}
                  {formatBytes(r.webm.size)}
                </p>
                <div className="flex gap-2">
                  <a
                    href={r.webmUrl}
                    download={downloadName(r.name, r.webm.type)}
                    className={
                      'inline-flex h-8 flex-1 items-center justify-center rounded-lg ' +
                      'border border-slate-300 text-sm font-medium text-slate-800 ' +
                      'hover:bg-slate-50'
                    }
                  >
                    Download<span className="sr-only"> {r.name}</span>
                  </a>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => void remove(r.id)}
                    aria-label={`Delete ${r.name} from this browser`}
                  >
                    Delete
                  </Button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The name a run downloads under: the video's name without its extension, then "-keyout". */
function downloadName(name: string, type: string): string {
  const base = name.replace(/\.[^.]+$/, '') || 'video';
  return `${base}-keyout.${type === 'video/mp4' ? 'mp4' : 'webm'}`;
}
