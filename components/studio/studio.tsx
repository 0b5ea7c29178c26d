'use client';

import { useState } from 'react';
import { useBackdrop } from '@/components/media/backdrop';
import { useObjectUrl } from '@/components/media/use-object-url';
import { Alert } from '@/components/ui/card';
import type { ApiModel } from '@/engine/api-models';
import type { Backend, PeopleModel } from '@/workers/browser/client';
import { BackendStatus } from './backend-status';
import { ProcessCard } from './process-card';
import { ServerCard } from './server-card';
import { StudioExports } from './studio-exports';
import { StudioHistory } from './history';
import { useBackendChoice } from './use-backend-choice';
import { useServerUpload } from './use-server-upload';
import { useStudioOutput } from './use-studio-output';
import { useStudioRun } from './use-studio-run';
import { VideoCard } from './video-card';

export function Studio({
  signedIn,
  forceBackend,
  forcePeople,
}: {
  signedIn: boolean;
  forceBackend: Backend | null;
  forcePeople: PeopleModel | null;
}) {
  const { choice, choiceError } = useBackendChoice(forceBackend);
  const [file, setFile] = useState<File | null>(null);
  const [model, setModel] = useState<ApiModel>('service-human');
  const output = useStudioOutput();
  const run = useStudioRun({ file, model, backend: choice, people: forcePeople, output });
  const server = useServerUpload(file);
  const backdrop = useBackdrop('#0ea5e9');
  // The original as a local object URL, for the before/after view.
  const fileUrl = useObjectUrl(file);
  const { phase } = run;
  const baseName = `${file?.name.replace(/\.[^.]+$/, '') || 'video'}-keyout`;

  return (
    <div className="space-y-6">
      <BackendStatus choice={choice} choiceError={choiceError} />
      {run.notice ? <Alert tone="info">{run.notice}</Alert> : null}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_340px]">
        <VideoCard
          file={file}
          fileUrl={fileUrl}
          run={run}
          backdrop={backdrop}
          onFile={setFile}
          // The sample is a ball, not a person: the general Light model suits it.
          onSample={(f) => {
            setFile(f);
            setModel('service-light');
          }}
          onClear={() => {
            setFile(null);
            run.reset();
          }}
        />

        <div className="space-y-6">
          <ProcessCard
            model={model}
            onModel={setModel}
            output={output}
            run={run}
            ready={Boolean(file && choice)}
            baseName={baseName}
          />
          {file ? <ServerCard signedIn={signedIn} phase={phase} server={server} /> : null}
        </div>
      </div>

      {phase.kind === 'done' && !phase.firstFrameOnly && phase.result.cutout.file.size ? (
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <StudioExports key={run.doneUrl} cutout={phase.result.cutout} name={baseName} />
        </div>
      ) : null}

      <StudioHistory refreshKey={run.historyKey} />
    </div>
  );
}
