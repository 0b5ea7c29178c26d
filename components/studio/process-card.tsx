import { Button } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { ChoiceSelect, Field } from '@/components/ui/field';
import { formatSeconds } from '@/components/format';
import { API_MODEL_ROWS, type ApiModel } from '@/engine/api-models';
import { OutputBackground } from './output-background';
import { RunProgress } from './run-progress';
import { RunResult } from './run-result';
import { OUTPUTS, type StudioOutput, type StudioOutputState } from './use-studio-output';
import type { StudioRun } from './use-studio-run';

const MODELS = API_MODEL_ROWS.filter((m) => m.browser).map((m) => ({
  id: m.id,
  label: `${m.label} — ${m.summary}`,
}));

/** Model and result, the run's buttons or its progress, and what it made (or why it failed). */
export function ProcessCard({
  model,
  onModel,
  output,
  run,
  ready,
  baseName,
}: {
  model: ApiModel;
  onModel: (model: ApiModel) => void;
  output: StudioOutputState;
  run: StudioRun;
  /** A video is chosen and a backend found. */
  ready: boolean;
  /** The download's file name without its extension. */
  baseName: string;
}) {
  const { phase } = run;
  const running = phase.kind === 'running';
  return (
    <Card>
      <CardTitle>Process</CardTitle>
      <div className="space-y-4">
        <Field id="studio-model" label="Model">
          <ChoiceSelect
            id="studio-model"
            value={model}
            onChange={(e) => onModel(e.target.value as ApiModel)}
            disabled={running}
            choices={MODELS}
          />
        </Field>
        <Field id="studio-output" label="Result">
          <ChoiceSelect
            id="studio-output"
            value={output.output}
            onChange={(e) => output.setOutput(e.target.value as StudioOutput)}
            disabled={running}
            choices={OUTPUTS}
          />
        </Field>
        {output.output !== 'cutout' ? (
          <OutputBackground output={output} disabled={running} />
        ) : null}
        {phase.kind === 'running' ? (
          <RunProgress phase={phase} onCancel={run.cancel} />
        ) : (
          <div className="space-y-2">
            <Button
              className="w-full"
              size="lg"
              disabled={!ready || output.needsImage}
              onClick={() => void run.run(false)}
            >
              Remove background
            </Button>
            <Button
              variant="secondary"
              className="w-full"
              disabled={!ready}
              onClick={() => void run.run(true)}
            >
              Preview the first frame
            </Button>
          </div>
        )}
        {phase.kind === 'done' && !phase.firstFrameOnly ? (
          <RunResult
            result={phase.result}
            url={phase.url}
            cutoutUrl={run.cutoutUrl}
            baseName={baseName}
          />
        ) : null}
        {phase.kind === 'done' && phase.firstFrameOnly ? (
          <p className="text-sm text-slate-600" data-testid="studio-first-frame-info">
            First frame done in {formatSeconds(phase.result.totalMs / 1000)} on{' '}
            {phase.result.runtime}, {formatSeconds(phase.result.modelLoadMs / 1000)} of it loading
            the models.
          </p>
        ) : null}
        {phase.kind === 'failed' ? <Alert tone="error">{phase.message}</Alert> : null}
      </div>
    </Card>
  );
}
