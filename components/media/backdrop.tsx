import { useState } from 'react';

/** What a preview is shown over: a checkerboard (transparency) or a chosen colour. */
export function useBackdrop(initialColor: string) {
  const [mode, setMode] = useState<'checker' | 'color'>('checker');
  const [color, setColor] = useState(initialColor);
  return {
    mode,
    setMode,
    color,
    setColor,
    className: mode === 'checker' ? 'checkerboard' : '',
    style: mode === 'color' ? { backgroundColor: color } : undefined,
  };
}

export type Backdrop = ReturnType<typeof useBackdrop>;

const MODES = [
  ['checker', 'Checkerboard'],
  ['color', 'Colour'],
] as const;

/** Checkerboard or colour radios and the colour; picking a colour switches to it. */
export function BackdropPicker({
  name,
  backdrop,
  className,
}: {
  name: string;
  backdrop: Backdrop;
  className: string;
}) {
  return (
    <fieldset className={className}>
      <legend className="sr-only">Preview background</legend>
      {MODES.map(([mode, label]) => (
        <label key={mode} className="flex items-center gap-1.5 text-slate-700">
          <input
            type="radio"
            name={name}
            checked={backdrop.mode === mode}
            onChange={() => backdrop.setMode(mode)}
            className="accent-indigo-600"
          />
          {label}
        </label>
      ))}
      <input
        type="color"
        aria-label="Preview colour"
        value={backdrop.color}
        onChange={(e) => {
          backdrop.setColor(e.target.value);
          backdrop.setMode('color');
        }}
        className="h-8 w-10 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
      />
    </fieldset>
  );
}
