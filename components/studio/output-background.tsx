import { Alert } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import type { StudioOutputState } from './use-studio-output';

const BACKGROUNDS = [
  ['color', 'Colour'],
  ['image', 'Image'],
  ['blur', 'Blurred'],
] as const;

/** The background behind the subject in an MP4 or WebM: a colour, an image or the video blurred. */
export function OutputBackground({
  output,
  disabled,
}: {
  output: StudioOutputState;
  disabled: boolean;
}) {
  const { backgroundChoice, backgroundImage } = output;
  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="mb-1 text-sm font-medium text-slate-800">Background</legend>
      <div className="flex flex-wrap gap-3 text-sm">
        {BACKGROUNDS.map(([id, label]) => (
          <label key={id} className="flex items-center gap-1.5 text-slate-700">
            <input
              type="radio"
              name="studio-background"
              checked={backgroundChoice === id}
              onChange={() => output.setBackgroundChoice(id)}
              className="accent-indigo-600"
            />
            {label}
          </label>
        ))}
      </div>
      {backgroundChoice === 'color' ? (
        <Field id="studio-output-color" label="Background colour">
          <input
            id="studio-output-color"
            type="color"
            value={output.outputColor}
            onChange={(e) => output.setOutputColor(e.target.value)}
            className="h-10 w-14 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
          />
        </Field>
      ) : null}
      {backgroundChoice === 'image' ? (
        <Field id="studio-output-image" label="Background image">
          <input
            id="studio-output-image"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(e) => void output.pickImage(e.target.files?.[0])}
            className={
              'block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg ' +
              'file:border-0 file:bg-slate-100 file:px-3 file:py-2 ' +
              'file:text-sm file:font-medium file:text-slate-800 ' +
              'hover:file:bg-slate-200'
            }
          />
        </Field>
      ) : null}
      {backgroundChoice === 'image' && backgroundImage && 'error' in backgroundImage ? (
        <Alert tone="error">{backgroundImage.error}</Alert>
      ) : null}
      {output.needsImage && !(backgroundImage && 'error' in backgroundImage) ? (
        <p className="text-xs text-slate-600">
          Choose a picture to put behind the subject; it covers the frame.
        </p>
      ) : null}
    </fieldset>
  );
}
