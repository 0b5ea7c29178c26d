import type { RefineState } from '@/app/(dashboard)/jobs/[id]/refine-actions';
import { Button } from '@/components/ui/button';
import { ActionOutcome } from '@/components/ui/action-outcome';
import { Field, inputClass } from '@/components/ui/field';

export interface RefineModelChoice {
  id: string;
  label: string;
  /** What a refinement of this video costs with it. */
  credits: number;
}

/**
 * A refinement's operation, model (with its price for this video) and edge cleanup: the fields both
 * refine forms share.
 */
export function RefineOptions({
  idPrefix,
  models,
}: {
  idPrefix: string;
  models: RefineModelChoice[];
}) {
  return (
    <>
      <Field id={`${idPrefix}-op`} label="Operation">
        <select id={`${idPrefix}-op`} name="op" className={inputClass} defaultValue="add">
          <option value="add">Add to the mask</option>
          <option value="subtract">Subtract from the mask</option>
        </select>
      </Field>
      <Field id={`${idPrefix}-model`} label="Model">
        <select
          id={`${idPrefix}-model`}
          name="model"
          className={inputClass}
          defaultValue={models[0]?.id}
        >
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label} — {m.credits} credit{m.credits === 1 ? '' : 's'}
            </option>
          ))}
        </select>
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-800 sm:col-span-2">
        <input type="checkbox" name="edge_cleanup" className="h-4 w-4 rounded border-slate-300" />
        Clean up the edges
      </label>
    </>
  );
}

/** Both refine forms' submit button and what their last submission said. */
export function RefineSubmit({
  label,
  ready,
  pending,
  running,
  result,
}: {
  label: string;
  ready: boolean;
  pending: boolean;
  running: boolean;
  result: RefineState;
}) {
  return (
    <>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={pending || running || !ready}>
          {pending ? 'Starting…' : running ? 'A refinement is running' : label}
        </Button>
      </div>
      <ActionOutcome
        result={result}
        className="sm:col-span-2"
        success={(r) =>
          running ? `Refining into version ${r.version}; it becomes active when it is done.` : null
        }
      />
    </>
  );
}
