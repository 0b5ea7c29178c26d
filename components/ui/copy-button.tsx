'use client';

import { useState } from 'react';
import { Button } from './button';

/** Copies text to the clipboard and says so (also to screen readers). */
export function CopyButton({
  text,
  label = 'Copy',
  srLabel,
  className = '',
  testId,
}: {
  text: string;
  label?: string;
  srLabel?: string;
  className?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
    setTimeout(() => setCopied(null), 2000);
  };
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => void copy()}
      className={`shrink-0 ${className}`}
      data-testid={testId}
    >
      <span aria-live="polite">
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Select and copy' : label}
      </span>
      {srLabel ? <span className="sr-only"> {srLabel}</span> : null}
    </Button>
  );
}
