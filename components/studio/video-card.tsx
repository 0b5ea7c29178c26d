import { BackdropPicker, type Backdrop } from '@/components/media/backdrop';
import { SampleClipButton } from '@/components/media/sample-clip-button';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Dropzone } from '@/components/ui/dropzone';
import { formatBytes } from '@/components/format';
import { ResultStage } from './result-stage';
import type { StudioRun } from './use-studio-run';

/**
 * The video: a picker (or the sample clip) until one is chosen, then its name, the result stage and
 * its backdrop.
 */
export function VideoCard({
  file,
  fileUrl,
  run,
  backdrop,
  onFile,
  onSample,
  onClear,
}: {
  file: File | null;
  fileUrl: string | null;
  run: StudioRun;
  backdrop: Backdrop;
  onFile: (file: File) => void;
  onSample: (file: File) => void;
  onClear: () => void;
}) {
  return (
    <Card>
      <CardTitle
        description={
          'Your video stays on this computer: it is decoded, segmented ' +
          'and encoded in this tab.'
        }
      >
        Video
      </CardTitle>
      {!file ? (
        <Dropzone
          accept="video/*,.mp4,.mov,.m4v,.webm,.mkv"
          label="Choose a video"
          hint="MP4 (H.264), WebM or MOV. Nothing is uploaded."
          onFile={onFile}
        >
          <SampleClipButton onFile={onSample} />
        </Dropzone>
      ) : (
        <div className="space-y-4">
          <div
            className={
              'flex items-center justify-between gap-3 rounded-lg border border-slate-200 p-3'
            }
          >
            <div className="min-w-0">
              <p className="truncate font-medium text-slate-900">{file.name}</p>
              <p className="text-sm text-slate-600">{formatBytes(file.size)}</p>
            </div>
            <Button
              variant="ghost"
              size="sm"
              disabled={run.phase.kind === 'running'}
              onClick={onClear}
            >
              Choose another
            </Button>
          </div>

          <ResultStage
            phase={run.phase}
            fileUrl={fileUrl}
            preview={run.preview}
            backdrop={backdrop}
          />
          <BackdropPicker
            name="studio-bg"
            backdrop={backdrop}
            className="flex flex-wrap items-center gap-3 text-sm"
          />
        </div>
      )}
    </Card>
  );
}
