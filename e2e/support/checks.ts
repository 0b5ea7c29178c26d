import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page, type Request } from '@playwright/test';
import path from 'node:path';
import { alphaRange, ARTIFACTS, screenshotPath } from './media';

/**
 * A VP9 WebM cut-out of the test clip: its frames, background cleared somewhere, the subject kept.
 */
export function expectClipCutOut(file: string): void {
  const alpha = alphaRange(file);
  expect(alpha.frames).toBeGreaterThan(100);
  expect(alpha.min).toBeLessThan(16);
  expect(alpha.max).toBeGreaterThan(240);
}

/** The two screens every page is checked at. */
export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

const axeSource = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * E2E_REPORT_ONLY=1 (for a first look at a changed UI) writes findings to
 * e2e-artifacts/check-report.txt instead of failing, so one run lists them all. Returns true
 * when the finding was only reported.
 */
function reportOnly(found: boolean, text: string): boolean {
  if (process.env.E2E_REPORT_ONLY !== '1') return false;
  if (found) fs.appendFileSync(path.join(ARTIFACTS, 'check-report.txt'), `${text}\n\n`);
  return true;
}

/**
 * Scalar 0.8's sidebar puts aria-selected on plain buttons and has icon-only buttons without a
 * name.
 */
const SCALAR_KNOWN = {
  container: '.keyout-api-reference',
  rules: ['aria-allowed-attr', 'button-name', 'aria-required-children'],
};

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * axe-core over the page as it is now (WCAG 2.1 A and AA rules and axe's best practices);
 * fails on any serious or critical violation, naming the rule and the elements.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async (upstream) => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    // Known defects inside the bundled Scalar reference, which no option of it turns off: left
    // out here (rule by rule, only inside its container) and reported upstream, not hidden
    // elsewhere.
    const inUpstream = (target: unknown[]) =>
      typeof target[0] === 'string' &&
      Boolean(document.querySelector(target[0])?.closest(upstream.container));
    return r.violations
      .map((v) =>
        upstream.rules.includes(v.id)
          ? { ...v, nodes: v.nodes.filter((n) => !inUpstream(n.target)) }
          : v,
      )
      .filter((v) => v.nodes.length > 0);
  }, SCALAR_KNOWN);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n'),
    )
    .join('\n');
  if (reportOnly(bad.length > 0, `${what}: axe found serious or critical issues:\n${report}`))
    return;
  expect(bad, `${what}: axe found serious or critical issues:\n${report}`).toEqual([]);
}

/** Nothing may make the whole page scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 4).join('.')}`);
    return {
      by: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      wide,
    };
  });
  if (
    reportOnly(
      overflow.by > 0,
      `${what} scrolls sideways by ${overflow.by} px; too wide: ${overflow.wide.join(', ')}`,
    )
  )
    return;
  expect(
    overflow.by,
    `${what} scrolls sideways by ${overflow.by} px at ` +
      `${PHONE.width} px; too wide: ${overflow.wide.join(', ')}`,
  ).toBeLessThanOrEqual(0);
}

/**
 * Looks at the page as it is at desktop and at phone width: a full-page screenshot of each
 * (e2e-artifacts/screenshots/<name>-desktop.png, -phone.png), axe at both, and no sideways
 * scroll on the phone. `ready` is awaited after each resize (e.g. for content that reflows).
 * Leaves the page at desktop width.
 */
export async function checkBothWidths(
  page: Page,
  name: string,
  ready?: () => Promise<void>,
): Promise<void> {
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await ready?.();
    await expectAccessible(page, `${name} (${label})`);
    if (label === 'phone') await expectNoSidewaysScroll(page, name);
    await page.screenshot({ path: screenshotPath(`${name}-${label}`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/**
 * Records every request to the server's API, and every request that is not a GET, from the
 * page's browser context (its workers included) from now on: the studio must make none of
 * either. `requests()` lists them; `stop()` stops recording.
 */
export function watchApiRequests(page: Page): { requests: () => string[]; stop: () => void } {
  const seen: string[] = [];
  const onRequest = (r: Request) => {
    const { pathname } = new URL(r.url());
    if (r.method() !== 'GET' || /^\/(v1|api)(\/|$)/.test(pathname))
      seen.push(`${r.method()} ${pathname}`);
  };
  page.context().on('request', onRequest);
  return { requests: () => seen, stop: () => page.context().off('request', onRequest) };
}
