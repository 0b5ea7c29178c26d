/**
 * The Docs page's quick start as shell steps that run when pasted, one after the other in the
 * same shell or together as one script: the key is a placeholder filled in once (or taken from
 * KEYOUT_API_KEY), and every later step reads the values it needs from the earlier responses
 * with jq.
 */
export interface QuickstartStep {
  title: string;
  code: string;
}

export const KEY_PLACEHOLDER = 'PASTE_YOUR_API_KEY_HERE';

export function quickstartSteps(base: string, keyPrefix: string | null): QuickstartStep[] {
  const keyHint = keyPrefix
    ? `your key starts with ${keyPrefix}`
    : 'create one on the API keys page';
  return [
    {
      title: 'Set your key, the server and the video (once)',
      code: `# the full key, shown once when created (${keyHint})
KEY="\${KEYOUT_API_KEY:-${KEY_PLACEHOLDER}}"
BASE="${base}"
VIDEO="\${VIDEO:-talk.mp4}"   # the video to process
command -v jq >/dev/null || echo "These steps need jq: apt-get install jq, or brew install jq"`,
    },
    {
      title: 'Create a job; keep its id and upload URL',
      code: `JOB=$(curl -sS --fail-with-body -X POST "$BASE/v1/jobs" \\
  -H "X-Api-Key: $KEY" -H "Content-Type: application/json" \\
  -d "{\\"filename\\":\\"$(basename "$VIDEO")\\",\\"content_type\\":\\"video/mp4\\"}") \\
  || echo "Refused: $JOB"
JOB_ID=$(echo "$JOB" | jq -r .id)
UPLOAD_URL=$(echo "$JOB" | jq -r .upload_url)
echo "Job $JOB_ID"`,
    },
    {
      title: 'Upload the video to the signed URL (no key needed)',
      code:
        `curl -sS --fail-with-body -X PUT "$UPLOAD_URL" -H ` +
        `"Content-Type: video/mp4" --data-binary @"$VIDEO"; echo`,
    },
    {
      title: 'Start it; the answer says exactly how many credits it used',
      code: `curl -sS --fail-with-body -X POST "$BASE/v1/jobs/$JOB_ID/start" \\
  -H "X-Api-Key: $KEY" -H "Content-Type: application/json" \\
  -d '{"model":"service-original",
       "background":{"type":"transparent","transparent_format":"webm_vp9"}}' \\
  | jq -c '{status, creditsUsed}'`,
    },
    {
      title: 'Wait until it is done, then download the transparent WebM',
      code: `STATE=processing
while [ "$STATE" = processing ]; do
  sleep 2
  STATUS=$(curl -sS --fail-with-body "$BASE/v1/jobs/$JOB_ID/status" -H "X-Api-Key: $KEY") || break
  STATE=$(echo "$STATUS" | jq -r .status)
  echo "$STATE: $(echo "$STATUS" | jq -r '.message // ""')"
done
if [ "$STATE" = completed ]; then
  curl -sS --fail-with-body -o "\${VIDEO%.*}-keyout.webm" \\
    "$(echo "$STATUS" | jq -r .processed_video_url)"
  echo "Saved \${VIDEO%.*}-keyout.webm"
fi`,
    },
  ];
}

/** All steps as one script file. */
export function quickstartScript(base: string, keyPrefix: string | null): string {
  const steps = quickstartSteps(base, keyPrefix);
  return [
    '#!/usr/bin/env bash',
    '# Keyout quick start: create a job, upload a video, start it, wait, download the result.',
    '# Run: KEYOUT_API_KEY=<your key> VIDEO=clip.mp4 bash keyout-quickstart.sh',
    'set -eu',
    ...steps.map((s, i) => `\n# ${i + 1}. ${s.title}\n${s.code}`),
    '[ "$STATE" = completed ]   # the exit status says whether the result was saved',
    '',
  ].join('\n');
}
