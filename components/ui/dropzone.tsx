'use client';

import { useId, useRef, useState, type ReactNode } from 'react';

/** The drop area's look while its file input has keyboard focus. */
const FOCUSED = [
  'has-[:focus-visible]:border-indigo-600',
  'has-[:focus-visible]:bg-indigo-50',
  'has-[:focus-visible]:ring-4',
  'has-[:focus-visible]:ring-indigo-600/30',
].join(' ');

/**
 * A file picker that is also a drop target. The real <input type="file"> stays in the page
 * (visually hidden) so keyboard users, screen readers and test tools reach it like any input;
 * the whole zone shows a focus ring when it has keyboard focus (Enter or Space opens the picker).
 * With `onFiles`, several files may be picked or dropped at once.
 */
export function Dropzone({
  accept,
  label,
  hint,
  onFile,
  onFiles,
  disabled,
  children,
}: {
  accept: string;
  label: string;
  hint?: ReactNode;
  onFile?: (file: File) => void;
  onFiles?: (files: File[]) => void;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const take = (list: FileList | null | undefined) => {
    const files = [...(list ?? [])];
    if (!files.length || disabled) return;
    if (onFiles) onFiles(files);
    else onFile?.(files[0]!);
  };
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        take(e.dataTransfer.files);
      }}
      className={[
        'relative rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors',
        FOCUSED,
        over
          ? 'border-indigo-500 bg-indigo-50'
          : 'border-slate-300 bg-white hover:border-slate-400',
        disabled ? 'opacity-60' : '',
      ].join(' ')}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="mx-auto h-10 w-10 text-slate-400"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
      >
        <path
          d="M12 16V4m0 0 4 4m-4-4-4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <label htmlFor={id} className="mt-3 block cursor-pointer text-sm font-medium text-slate-900">
        <span className="text-indigo-700 underline-offset-2 hover:underline">{label}</span> or drag
        and drop {onFiles ? 'them' : 'it'} here
      </label>
      {hint ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        multiple={Boolean(onFiles)}
        disabled={disabled}
        className="sr-only"
        onChange={(e) => {
          take(e.target.files);
          e.target.value = '';
        }}
      />
      {children}
    </div>
  );
}
