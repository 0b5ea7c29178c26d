/**
 * A refinement's prompt in a few words, for ledger notes and the job page: “the dog”, or “3 points
 * at 1.20 s”.
 */
export function describePrompt(
  p: { mode: 'text'; text: string } | { mode: 'points'; time: number; points: readonly unknown[] },
): string {
  if (p.mode === 'text') return `“${p.text.length > 60 ? `${p.text.slice(0, 59)}…` : p.text}”`;
  return `${p.points.length} point${p.points.length === 1 ? '' : 's'} at ${p.time.toFixed(2)} s`;
}
