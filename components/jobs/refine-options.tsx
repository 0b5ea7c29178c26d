import { Field, inputClass } from '@/components/ui/field';

export interface RefineModelChoice {
  id: string;
  label: string;
  /** What a refinement of this video costs with it. */
  credits: number;
}

/** A refinement's operation, model (with its price for this video) and edge cleanup: the fields both refine forms share. */
export function RefineOptions({ idPrefix, models }: { idPrefix: string; models: RefineModelChoice[] }) {
  return (
    <>
      <Field id={`${idPrefix}-op`} label="Operation">
        <select id={`${idPrefix}-op`} name="op" className={inputClass} defaultValue="add">
          <option value="add">Add to the mask</option>
          <option value="subtract">Subtract from the mask</option>
        </select>
      </Field>
      <Field id={`${idPrefix}-model`} label="Model">
        <select id={`${idPrefix}-model`} name="model" className={inputClass} defaultValue={models[0]?.id}>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label} — {m.credits} credit{m.credits === 1 ? '' : 's'}
            </option>
          ))}
        </select>
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-800 sm:col-span-2">
        <input type="checkbox" name="edge_cleanup" className="h-4 w-4 rounded border-slate-300" /> Clean up the edges
      </label>
    </>
  );
}
