import { Button, LinkButton } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { ProgressBar } from '@/components/ui/progress';
import type { ServerUpload } from './use-server-upload';
import type { Phase } from './use-studio-run';

/** The way out to the server: upload the video as a job there (signed in), or sign in first. */
export function ServerCard({
  signedIn,
  phase,
  server,
}: {
  signedIn: boolean;
  phase: Phase;
  server: ServerUpload;
}) {
  const { serverUpload } = server;
  return (
    <Card>
      <CardTitle description="For long, large or HEVC videos, or when this computer is slow.">
        Process on the server instead
      </CardTitle>
      {signedIn ? (
        <div className="space-y-3">
          {serverUpload && 'loaded' in serverUpload ? (
            <ProgressBar
              value={serverUpload.loaded / Math.max(1, serverUpload.total)}
              label="Upload to the server"
            />
          ) : null}
          {serverUpload && 'error' in serverUpload ? (
            <Alert tone="error">{serverUpload.error}</Alert>
          ) : null}
          <Button
            variant={phase.kind === 'failed' && phase.serverCanHelp ? 'primary' : 'secondary'}
            className="w-full"
            disabled={
              phase.kind === 'running' || (serverUpload !== null && 'loaded' in serverUpload)
            }
            onClick={() => void server.sendToServer()}
          >
            Upload and continue on the server
          </Button>
          <p className="text-xs text-slate-500">
            You will see the exact credit cost before anything is charged.
          </p>
        </div>
      ) : (
        <LinkButton href="/signin?next=/studio" variant="secondary" className="w-full">
          Sign in to use the server
        </LinkButton>
      )}
    </Card>
  );
}
