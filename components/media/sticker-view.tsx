import { formatBytes } from '@/components/format';
import { CheckboxGrid } from '@/components/ui/checkbox-grid';
import { OUTPUT_FORMATS, type OutputFormat } from '@/engine/formats';

/** The sticker formats, in catalogue order: each platform's policy is in engine/formats. */
export const STICKERS = OUTPUT_FORMATS.filter(
  (f): f is (typeof OUTPUT_FORMATS)[number] & { sticker: NonNullable<OutputFormat['sticker']> } =>
    f.family === 'sticker',
);

export const stickerOf = (format: string) => STICKERS.find((f) => f.id === format);

/** How big the sticker shows in a chat: the canvas, at most 160 CSS pixels (emoji are small). */
const shownSize = (canvas: number) => Math.min(160, canvas);

/** A sticker as a chat shows it: under a message, at its canvas size (at most 160 px). */
export function StickerChatPreview({ format, url }: { format: string; url: string }) {
  const f = stickerOf(format)!;
  const size = shownSize(f.sticker.canvas.width);
  const media =
    f.sticker.codec.codec === 'vp9' ? (
      <video
        src={url}
        autoPlay
        loop
        muted
        playsInline
        width={size}
        height={size}
        aria-label={`${f.sticker.platform} sticker`}
      />
    ) : (
      // eslint-disable-next-line @next/next/no-img-element -- a signed or local URL of an animation
      <img src={url} width={size} height={size} alt={`${f.sticker.platform} sticker`} />
    );
  return (
    <div className="rounded-xl bg-[#dfe9f2] p-3" data-testid="sticker-chat">
      <p
        className={
          'mb-2 w-fit max-w-[75%] rounded-2xl rounded-bl-sm bg-white px-3 ' +
          'py-1.5 text-sm text-slate-800 shadow-sm'
        }
      >
        Look at this 👇
      </p>
      <div className="ml-auto w-fit">{media}</div>
      <p className="mt-1 text-right text-[11px] text-slate-600">{f.sticker.platform}</p>
    </div>
  );
}

/** Bytes against the platform's budget, as a bar and in words. */
export function BudgetMeter({ bytes, budget }: { bytes: number; budget: number }) {
  const share = bytes / budget;
  return (
    <div>
      <div
        className="h-1.5 overflow-hidden rounded-full bg-slate-100"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={budget}
        aria-valuenow={bytes}
        aria-label="Size against the budget"
      >
        <div
          className={`h-full ${share > 0.95 ? 'bg-amber-500' : 'bg-emerald-500'}`}
          style={{ width: `${Math.min(100, share * 100)}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {formatBytes(bytes)} of a {formatBytes(budget)} budget ({Math.round(share * 100)} %)
      </p>
    </div>
  );
}

/** The platform checkboxes, named `format`, for a form or a controlled list. */
export function StickerChoices({
  checked,
  onChange,
}: {
  checked?: ReadonlySet<string>;
  onChange?: (format: string, on: boolean) => void;
}) {
  return (
    <CheckboxGrid
      legend="Platforms"
      options={STICKERS.map((f) => ({
        id: f.id,
        label: f.label,
        detail: `≤ ${f.sticker.limitLabel} · ${f.id}`,
      }))}
      name="format"
      checked={checked}
      onChange={onChange}
    />
  );
}
