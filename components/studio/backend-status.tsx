import { Badge } from '@/components/ui/badge';
import { Alert } from '@/components/ui/card';
import type { BackendChoice } from '@/workers/browser/client';

/** Which backend the models run on and why, while it is being found, or why none can be used. */
export function BackendStatus({
  choice,
  choiceError,
}: {
  choice: BackendChoice | null;
  choiceError: string | null;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="studio-backend">
      {choice ? (
        <>
          <Badge tone={choice.backend === 'webgpu' ? 'green' : 'blue'}>
            {choice.backend === 'webgpu' ? 'WebGPU' : 'WebAssembly (CPU)'}
          </Badge>
          <span className="text-slate-600">{choice.reason}</span>
        </>
      ) : choiceError ? (
        <Alert tone="error">{choiceError}</Alert>
      ) : (
        <span className="text-slate-500">Checking for a GPU…</span>
      )}
    </div>
  );
}
