import { ChoiceSelect, Field, TextInput } from '@/components/ui/field';
import { CONTAINERS, TRANSPARENT_FORMATS } from '../job-options';
import type { StartField } from '@/lib/services/jobs/start-errors';
import type { StartJobs } from './use-start-jobs';
import type { StartOptions } from './use-start-options';

const MEDIA_TYPES = [
  { id: 'image', label: 'Image' },
  { id: 'video', label: 'Video (loops)' },
];
const BLUR_MODES = [
  { id: 'background', label: 'The background (keep the subject sharp)' },
  { id: 'subject', label: 'The subject (e.g. to anonymise)' },
];

interface FieldsProps {
  disabled: boolean;
  options: StartOptions;
  jobs: StartJobs;
}

/** A URL the start checks: its refusal shown under it, and the focus brought to it. */
export function UrlField({
  id,
  label,
  hint,
  jobs,
  value,
  onChange,
  placeholder,
  disabled,
}: {
  id: StartField;
  label: string;
  hint: string;
  jobs: StartJobs;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  disabled: boolean;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={jobs.fieldError(id)}>
      <TextInput
        ref={jobs.fieldRef(id)}
        id={id}
        type="url"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        disabled={disabled}
      />
    </Field>
  );
}

/** The settings of the chosen output kind, and the file type of every kind but transparent. */
export function OutputFields({ disabled, options, jobs }: FieldsProps) {
  const { outKind } = options;
  return (
    <div className="mt-5 grid gap-4 sm:grid-cols-2">
      {outKind === 'transparent' ? <FormatField disabled={disabled} options={options} /> : null}
      {outKind === 'color' ? (
        <ColourField disabled={disabled} options={options} jobs={jobs} />
      ) : null}
      {outKind === 'media' ? (
        <MediaFields disabled={disabled} options={options} jobs={jobs} />
      ) : null}
      {outKind === 'blur' ? <BlurFields disabled={disabled} options={options} /> : null}
      {outKind !== 'transparent' ? <ContainerField disabled={disabled} options={options} /> : null}
    </div>
  );
}

function FormatField({ disabled, options }: Omit<FieldsProps, 'jobs'>) {
  return (
    <div className="sm:col-span-2">
      <Field id="format" label="Format">
        <ChoiceSelect
          id="format"
          value={options.format}
          onChange={(e) => options.setFormat(e.target.value)}
          disabled={disabled}
          choices={TRANSPARENT_FORMATS}
        />
      </Field>
    </div>
  );
}

function ColourField({ disabled, options, jobs }: FieldsProps) {
  const { color, setColor } = options;
  const error = jobs.fieldError('color');
  return (
    <Field id="color" label="Background colour" error={error}>
      <div className="flex gap-2">
        <input
          id="color"
          type="color"
          value={color}
          onChange={(e) => setColor(e.target.value)}
          className="h-10 w-14 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
          disabled={disabled}
        />
        <TextInput
          ref={jobs.fieldRef('color')}
          aria-label="Colour as hex"
          value={color}
          onChange={(e) => setColor(e.target.value)}
          pattern="#[0-9a-fA-F]{6}"
          className="font-mono"
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'color-error' : undefined}
        />
      </div>
    </Field>
  );
}

function MediaFields({ disabled, options, jobs }: FieldsProps) {
  const { mediaFile } = options;
  return (
    <>
      <UrlField
        id="bg-url"
        label="Background URL"
        hint={
          mediaFile
            ? 'Not used: the uploaded image is the background.'
            : 'A public http(s) address of an image or video. It is checked ' +
              'before anything is charged.'
        }
        jobs={jobs}
        value={options.mediaUrl}
        onChange={options.setMediaUrl}
        placeholder="https://example.com/beach.jpg"
        disabled={disabled || Boolean(mediaFile)}
      />
      <Field
        id="bg-file"
        label="Or upload an image"
        hint="PNG, JPEG or WebP, up to 20 MB. It is kept with the job and deleted with it."
        error={jobs.fieldError('bg-file')}
      >
        <input
          ref={jobs.fieldRef('bg-file')}
          id="bg-file"
          type="file"
          accept="image/png,image/jpeg,image/webp"
          onChange={(e) => {
            options.setMediaFile(e.target.files?.[0] ?? null);
            jobs.clearBackgroundError();
          }}
          className={
            'block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg ' +
            'file:border-0 file:bg-indigo-50 file:px-3 file:py-2 ' +
            'file:text-sm file:font-medium file:text-indigo-700 ' +
            'hover:file:bg-indigo-100'
          }
          disabled={disabled}
        />
      </Field>
      <Field id="bg-type" label="Background is a">
        <ChoiceSelect
          id="bg-type"
          value={mediaFile ? 'image' : options.mediaType}
          onChange={(e) => options.setMediaType(e.target.value as 'image' | 'video')}
          disabled={disabled || Boolean(mediaFile)}
          choices={MEDIA_TYPES}
        />
      </Field>
    </>
  );
}

function BlurFields({ disabled, options }: Omit<FieldsProps, 'jobs'>) {
  return (
    <>
      <Field id="blur-mode" label="Blur">
        <ChoiceSelect
          id="blur-mode"
          value={options.blurMode}
          onChange={(e) => options.setBlurMode(e.target.value as 'background' | 'subject')}
          disabled={disabled}
          choices={BLUR_MODES}
        />
      </Field>
      <Field id="blur-intensity" label={`Strength: ${options.blurIntensity}`}>
        <input
          id="blur-intensity"
          type="range"
          min={5}
          max={100}
          value={options.blurIntensity}
          onChange={(e) => options.setBlurIntensity(Number(e.target.value))}
          className="w-full accent-indigo-600"
          disabled={disabled}
        />
      </Field>
    </>
  );
}

function ContainerField({ disabled, options }: Omit<FieldsProps, 'jobs'>) {
  return (
    <Field id="container" label="File type">
      <ChoiceSelect
        id="container"
        value={options.container}
        onChange={(e) => options.setContainer(e.target.value)}
        disabled={disabled}
        choices={CONTAINERS}
      />
    </Field>
  );
}
