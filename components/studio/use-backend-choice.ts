import { useEffect, useState } from 'react';
import { type Backend, type BackendChoice, chooseBackend } from '@/workers/browser/client';

/** The backend this browser runs the models on (WebGPU or WebAssembly), and why. */
export function useBackendChoice(forceBackend: Backend | null) {
  const [choice, setChoice] = useState<BackendChoice | null>(null);
  const [choiceError, setChoiceError] = useState<string | null>(null);
  useEffect(() => {
    chooseBackend(forceBackend).then(setChoice, (err: Error) => setChoiceError(err.message));
  }, [forceBackend]);
  return { choice, choiceError };
}
