/**
 * PUTs a file straight to a signed upload URL with XMLHttpRequest, the one browser API that
 * reports upload progress. Resolves on a 2xx answer; rejects with the server's error message.
 */
export function uploadWithProgress(
  url: string,
  file: File,
  headers: Record<string, string>,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    // The browser sets Content-Length from the file itself (and refuses to be told it).
    for (const [k, v] of Object.entries(headers))
      if (k.toLowerCase() !== 'content-length') xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = `The upload failed (HTTP ${xhr.status}).`;
      try {
        const body = JSON.parse(xhr.responseText) as { error?: string; details?: string };
        if (body.error) message = body.details ? `${body.error}: ${body.details}` : body.error;
      } catch {
        // not JSON: keep the status message
      }
      reject(new Error(message));
    };
    xhr.onerror = () =>
      reject(new Error('The upload was interrupted. Check your connection and try again.'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
