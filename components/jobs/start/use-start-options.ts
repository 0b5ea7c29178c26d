import { useState } from 'react';
import { DEFAULT_MODEL } from '@/engine/api-models';
import { DEFAULT_FORMAT } from '@/engine/formats';
import { type BackgroundChoice, MODELS } from '../job-options';

/** The options every target job starts with: model, output (kind and its settings) and webhook. */
export function useStartOptions({
  initialModel,
  initialChoice,
  initialWebhook,
}: {
  initialModel: string;
  initialChoice: BackgroundChoice;
  initialWebhook: string;
}) {
  const [model, setModel] = useState<string>(
    MODELS.some((m) => m.id === initialModel) ? initialModel : DEFAULT_MODEL,
  );
  const [outKind, setOutKind] = useState<BackgroundChoice['kind']>(initialChoice.kind);
  const [format, setFormat] = useState(
    initialChoice.kind === 'transparent' ? initialChoice.format : DEFAULT_FORMAT,
  );
  const [color, setColor] = useState(
    initialChoice.kind === 'color' ? initialChoice.color : '#22c55e',
  );
  const [mediaUrl, setMediaUrl] = useState(initialChoice.kind === 'media' ? initialChoice.url : '');
  const [mediaFile, setMediaFile] = useState<File | null>(null);
  const [mediaType, setMediaType] = useState<'image' | 'video'>(
    initialChoice.kind === 'media' ? initialChoice.mediaType : 'image',
  );
  const [blurMode, setBlurMode] = useState<'background' | 'subject'>(
    initialChoice.kind === 'blur' ? initialChoice.mode : 'background',
  );
  const [blurIntensity, setBlurIntensity] = useState(
    initialChoice.kind === 'blur' ? initialChoice.intensity : 50,
  );
  const [container, setContainer] = useState(
    initialChoice.kind === 'transparent' ? 'mp4' : initialChoice.container,
  );
  const [webhookUrl, setWebhookUrl] = useState(initialWebhook);

  function choice(): BackgroundChoice {
    switch (outKind) {
      case 'transparent':
        return { kind: 'transparent', format };
      case 'color':
        return { kind: 'color', color, container };
      case 'media':
        return {
          kind: 'media',
          url: mediaUrl.trim(),
          mediaType: mediaFile ? 'image' : mediaType,
          container,
        };
      case 'blur':
        return { kind: 'blur', mode: blurMode, intensity: blurIntensity, container };
    }
  }

  return {
    model,
    setModel,
    outKind,
    setOutKind,
    format,
    setFormat,
    color,
    setColor,
    mediaUrl,
    setMediaUrl,
    mediaFile,
    setMediaFile,
    mediaType,
    setMediaType,
    blurMode,
    setBlurMode,
    blurIntensity,
    setBlurIntensity,
    container,
    setContainer,
    webhookUrl,
    setWebhookUrl,
    choice,
  };
}

export type StartOptions = ReturnType<typeof useStartOptions>;
