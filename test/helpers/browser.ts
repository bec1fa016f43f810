/**
 * Debian's Chromium for the browser tests (never a downloaded one: CI installs it in .ci/run,
 * developers with apt), started headless and closed when the test ends, and axe-core's verdict on
 * a page: the pieces every test under test/browser/ shares.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, started headless; a missing browser fails the test with what to install. */
export async function launchChromium(t: Pick<TestContext, 'after'>): Promise<Browser> {
  assert.ok(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests; .ci/run installs it.`,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  t.after(() => browser.close());
  return browser;
}

/** The page's serious and critical axe-core violations, as "rule: target" lines (none is the goal). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')}`));
}
