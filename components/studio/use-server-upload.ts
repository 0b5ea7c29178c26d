import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { createUploadAction } from '@/app/(dashboard)/jobs/actions';
import { uploadWithProgress } from '@/components/jobs/upload';

/** Uploads the video to the server as a new job, then opens New job on it to choose and pay. */
export function useServerUpload(file: File | null) {
  const router = useRouter();
  const [serverUpload, setServerUpload] = useState<
    { loaded: number; total: number } | { error: string } | null
  >(null);

  async function sendToServer() {
    if (!file) return;
    setServerUpload({ loaded: 0, total: file.size });
    const created = await createUploadAction(file.name, file.type || 'video/mp4', file.size);
    if (!created.ok) return setServerUpload({ error: created.error });
    try {
      await uploadWithProgress(created.uploadUrl, file, created.headers, (loaded, total) =>
        setServerUpload({ loaded, total }),
      );
      router.push(`/jobs/new?job=${created.jobId}`);
    } catch (err) {
      setServerUpload({ error: (err as Error).message });
    }
  }

  return { serverUpload, sendToServer };
}

export type ServerUpload = ReturnType<typeof useServerUpload>;
