/**
 * The figures of the last 30 days on the console's overview (issue 33) as inline SVG charts:
 * computed with d3-scale and d3-shape (numbers and path strings, no DOM), drawn with presentation
 * attributes only (the page's CSP allows its one hashed style and no style attribute), readable
 * without script. Each chart is a <figure> with its caption, an <svg role="img"> whose <title> and
 * <desc> say the total or median in words, and beside it a <details> with a real <table> of the
 * numbers for screen readers and anyone who wants them exactly. German or English.
 */
import { type ScaleBand, type ScaleLinear, scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { ConsoleFigures, DayCount, DayMedian, ReasonCount } from '../../services/console-figures.js';
import { html, type SafeHtml } from './html.js';
import type { Words } from './sign-in-pages.js';

export type ChartLanguage = 'de' | 'en';

/** The series drawn as bars per day. */
export type CountKind = 'signups' | 'jobs' | 'bookings';

const say = (language: ChartLanguage, words: Words) => words[language];

/**
 * The charts stand on the page's own ground, light or dark (the page's colour scheme): text, axes
 * and grid take the page's text colour (currentColor; the page style may set `svg text` too), and
 * the bars a middle blue that keeps a contrast of at least 3:1 against both the light card
 * (#fff, 4.5:1) and the dark one (#1f2328, 3.5:1), as WCAG 1.4.11 asks of graphics. Classes (bar,
 * series, point, grid, axis, reference) let the page's one style change them; no style attribute.
 */
const BAR = '#3a78c8';

/** The drawing's coordinates; the <svg> is as wide as its container and keeps this aspect ratio. */
const WIDTH = 800;
const HEIGHT = 260;
const MARGIN = { top: 14, right: 30, bottom: 48, left: 56 };

const LOCALE: Record<ChartLanguage, string> = { de: 'de-DE', en: 'en-GB' };

const COUNT_WORDS: Record<CountKind, { title: Words; one: Words; many: Words; column: Words }> = {
  signups: {
    title: { de: 'Neue Konten pro Tag', en: 'New accounts per day' },
    one: { de: 'neues Konto', en: 'new account' },
    many: { de: 'neue Konten', en: 'new accounts' },
    column: { de: 'Neue Konten', en: 'New accounts' },
  },
  jobs: {
    title: { de: 'Neue Aufträge pro Tag', en: 'New jobs per day' },
    one: { de: 'neuer Auftrag', en: 'new job' },
    many: { de: 'neue Aufträge', en: 'new jobs' },
    column: { de: 'Neue Aufträge', en: 'New jobs' },
  },
  bookings: {
    title: { de: 'Neue Buchungen pro Tag', en: 'New bookings per day' },
    one: { de: 'neue Buchung', en: 'new booking' },
    many: { de: 'neue Buchungen', en: 'new bookings' },
    column: { de: 'Neue Buchungen', en: 'New bookings' },
  },
};

/** The grounds a report gives (schemas/notices.ts REPORT_REASONS); a ground not listed shows as stored. */
const REASON_WORDS: Record<string, Words> = {
  illegal_content: { de: 'Rechtswidriger Inhalt', en: 'Illegal content' },
  scam_or_fraud: { de: 'Betrug', en: 'Scam or fraud' },
  unsafe_product: { de: 'Unsicheres Produkt', en: 'Unsafe product' },
  discrimination_or_hate: { de: 'Diskriminierung, Hass', en: 'Discrimination or hate' },
  privacy_violation: { de: 'Verletzung der Privatsphäre', en: 'Privacy violation' },
  intellectual_property: { de: 'Geistiges Eigentum', en: 'Intellectual property' },
  prohibited_item: { de: 'Verbotener Gegenstand', en: 'Prohibited item' },
  other: { de: 'Sonstiges', en: 'Other' },
};

const DAY: Words = { de: 'Tag (UTC)', en: 'Day (UTC)' };
const TOTAL: Words = { de: 'Summe', en: 'Total' };
const TABLE: Words = { de: 'Tabelle', en: 'Table' };

export const reasonLabel = (language: ChartLanguage, reason: string): string => {
  const words = REASON_WORDS[reason];
  return words ? say(language, words) : reason;
};

const round = (value: number) => Math.round(value * 10) / 10;

/** A number as the language writes it, at most one decimal. */
function formatNumber(language: ChartLanguage, value: number): string {
  return new Intl.NumberFormat(LOCALE[language], { maximumFractionDigits: 1 }).format(value);
}

const dateOf = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** "22. Okt." or "22 Oct": the axis's labels. */
function shortDay(language: ChartLanguage, day: string): string {
  return new Intl.DateTimeFormat(LOCALE[language], { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    dateOf(day),
  );
}

/** "22. Oktober 2026" or "22 October 2026": the words and the tables. */
function longDay(language: ChartLanguage, day: string): string {
  return new Intl.DateTimeFormat(LOCALE[language], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(dateOf(day));
}

/** "in den 30 Tagen vom 22. Oktober 2026 bis 20. November 2026": the days counted, inclusive. */
function period(language: ChartLanguage, from: string, to: string): string {
  const count = Math.round((dateOf(to).getTime() - dateOf(from).getTime()) / 86_400_000) + 1;
  return language === 'de'
    ? `in den ${count} Tagen vom ${longDay(language, from)} bis ${longDay(language, to)}`
    : `in the ${count} days from ${longDay(language, from)} to ${longDay(language, to)}`;
}

/** The period of a series of days, oldest first. */
const periodOf = (language: ChartLanguage, days: readonly { day: string }[]): string => {
  const from = days[0]?.day;
  const to = days[days.length - 1]?.day;
  return from === undefined || to === undefined ? '' : period(language, from, to);
};

const dayCell = (language: ChartLanguage, day: string) =>
  html`<th scope="row"><time datetime="${day}">${longDay(language, day)}</time></th>`;

/** The drawing, its name and description for assistive technology first. */
function svg(id: string, title: string, description: string, height: number, content: SafeHtml[]): SafeHtml {
  return html`<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" viewBox="0 0 ${WIDTH} ${height}" width="100%" font-family="system-ui, sans-serif" font-size="13" fill="currentColor">
<title id="${id}-title">${title}</title>
<desc id="${id}-desc">${description}</desc>
${content}
</svg>`;
}

/** A grid line: the text colour, faint. */
const gridLine = (x1: number, x2: number, y1: number, y2: number) =>
  html`<line class="grid" x1="${round(x1)}" x2="${round(x2)}" y1="${round(y1)}" y2="${round(y2)}" stroke="currentColor" stroke-opacity="0.2"/>`;

/** An axis line or tick: the text colour. */
const axisLine = (x1: number, x2: number, y1: number, y2: number) =>
  html`<line class="axis" x1="${round(x1)}" x2="${round(x2)}" y1="${round(y1)}" y2="${round(y2)}" stroke="currentColor"/>`;

function figure(id: string, caption: string, drawing: SafeHtml, summary: string, table: SafeHtml): SafeHtml {
  return html`<figure id="${id}">
<figcaption id="${id}-caption">${caption}</figcaption>
${drawing}
<details><summary>${summary}</summary>
${table}
</details>
</figure>`;
}

/** Horizontal grid lines with their values at the left, and the axis's title turned upright. */
function valueAxis(language: ChartLanguage, y: ScaleLinear<number, number>, title: Words, integers: boolean): SafeHtml {
  const ticks = y.ticks(5).filter((tick) => !integers || Number.isInteger(tick));
  const lines = ticks.map(
    (tick) =>
      html`${gridLine(MARGIN.left, WIDTH - MARGIN.right, y(tick), y(tick))}
<text x="${MARGIN.left - 6}" y="${round(y(tick))}" dy="0.32em" text-anchor="end">${formatNumber(language, tick)}</text>`,
  );
  const [bottom, top] = y.range() as [number, number];
  return html`<g aria-hidden="true">${lines}
<text transform="translate(14 ${round((top + bottom) / 2)}) rotate(-90)" text-anchor="middle">${say(language, title)}</text></g>`;
}

/** The days' axis: a base line, a label every seventh day counting back from today, and its title. */
function dayAxis(language: ChartLanguage, x: ScaleBand<string>, baseline: number, height: number): SafeHtml {
  const days = x.domain();
  const labels = days
    .filter((_, i) => (days.length - 1 - i) % 7 === 0)
    .map(
      (day) =>
        html`${axisLine((x(day) ?? 0) + x.bandwidth() / 2, (x(day) ?? 0) + x.bandwidth() / 2, baseline, baseline + 5)}
<text x="${round((x(day) ?? 0) + x.bandwidth() / 2)}" y="${baseline + 18}" text-anchor="middle">${shortDay(language, day)}</text>`,
    );
  return html`<g aria-hidden="true">${axisLine(MARGIN.left, WIDTH - MARGIN.right, baseline, baseline)}
${labels}
<text x="${round((MARGIN.left + WIDTH - MARGIN.right) / 2)}" y="${height - 8}" text-anchor="middle">${say(language, DAY)}</text></g>`;
}

const dayScale = (days: readonly string[]) =>
  scaleBand<string>()
    .domain(days)
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);

/** Bars of a count per day (new accounts, jobs or bookings), with a table of the same numbers. */
export function countChart(
  language: ChartLanguage,
  id: string,
  kind: CountKind,
  counts: readonly DayCount[],
): SafeHtml {
  const words = COUNT_WORDS[kind];
  const title = say(language, words.title);
  const total = counts.reduce((sum, row) => sum + row.count, 0);
  const busiest = counts.reduce<DayCount | undefined>(
    (best, row) => (!best || row.count > best.count ? row : best),
    undefined,
  );
  const noun = say(language, total === 1 ? words.one : words.many);
  let description =
    language === 'de'
      ? `Insgesamt ${formatNumber(language, total)} ${noun} ${periodOf(language, counts)}.`
      : `${formatNumber(language, total)} ${noun} in total ${periodOf(language, counts)}.`;
  if (busiest && total > 0) {
    description +=
      language === 'de'
        ? ` Höchster Tageswert: ${formatNumber(language, busiest.count)} am ${longDay(language, busiest.day)}.`
        : ` Highest day: ${formatNumber(language, busiest.count)} on ${longDay(language, busiest.day)}.`;
  }

  const baseline = HEIGHT - MARGIN.bottom;
  const x = dayScale(counts.map((row) => row.day));
  const y = scaleLinear()
    .domain([0, Math.max(1, busiest?.count ?? 0)])
    .nice(5)
    .range([baseline, MARGIN.top]);
  const bars = counts
    .filter((row) => row.count > 0)
    .map(
      (row) =>
        html`<rect class="bar" x="${round(x(row.day) ?? 0)}" y="${round(y(row.count))}" width="${round(x.bandwidth())}" height="${round(baseline - y(row.count))}" fill="${BAR}"/>`,
    );
  const drawing = svg(id, title, description, HEIGHT, [
    valueAxis(language, y, { de: 'Anzahl', en: 'Count' }, true),
    html`<g>${bars}</g>`,
    dayAxis(language, x, baseline, HEIGHT),
  ]);

  const rows = counts.map((row) => html`<tr>${dayCell(language, row.day)}<td>${row.count}</td></tr>`);
  const table = html`<table>
<caption>${title}</caption>
<thead><tr><th scope="col">${say(language, DAY)}</th><th scope="col">${say(language, words.column)}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th scope="row">${say(language, TOTAL)}</th><td>${total}</td></tr></tfoot>
</table>`;
  return figure(id, title, drawing, `${say(language, TABLE)}: ${title}`, table);
}

/** Horizontal bars of the reports per ground the reporters chose, with a table of the same numbers. */
export function reasonsChart(
  language: ChartLanguage,
  id: string,
  reasons: readonly ReasonCount[],
  range: { from: string; to: string },
): SafeHtml {
  const title = say(language, { de: 'Meldungen nach Grund', en: 'Reports by ground' });
  const total = reasons.reduce((sum, row) => sum + row.count, 0);
  const most = reasons.reduce<ReasonCount | undefined>(
    (best, row) => (!best || row.count > best.count ? row : best),
    undefined,
  );
  const days = period(language, range.from, range.to);
  let description =
    language === 'de'
      ? `Insgesamt ${formatNumber(language, total)} ${total === 1 ? 'Meldung' : 'Meldungen'} ${days}.`
      : `${formatNumber(language, total)} ${total === 1 ? 'report' : 'reports'} in total ${days}.`;
  if (most && total > 0) {
    description +=
      language === 'de'
        ? ` Häufigster Grund: ${reasonLabel(language, most.reason)} (${formatNumber(language, most.count)}).`
        : ` Most frequent ground: ${reasonLabel(language, most.reason)} (${formatNumber(language, most.count)}).`;
  }

  const left = 190;
  const row = 24;
  const height = MARGIN.top + row * Math.max(1, reasons.length) + 40;
  const baseline = height - 40;
  const y = scaleBand<string>()
    .domain(reasons.map((reason) => reason.reason))
    .range([MARGIN.top, baseline])
    .paddingInner(0.25)
    .paddingOuter(0.1);
  const x = scaleLinear()
    .domain([0, Math.max(1, most?.count ?? 0)])
    .nice(5)
    .range([left, WIDTH - MARGIN.right - 24]);
  const grid = x
    .ticks(5)
    .filter((tick) => Number.isInteger(tick))
    .map(
      (tick) =>
        html`${gridLine(x(tick), x(tick), MARGIN.top, baseline)}
<text x="${round(x(tick))}" y="${baseline + 16}" text-anchor="middle">${formatNumber(language, tick)}</text>`,
    );
  const bars = reasons.map((reason) => {
    const top = y(reason.reason) ?? 0;
    const middle = round(top + y.bandwidth() / 2);
    return html`<text x="${left - 8}" y="${middle}" dy="0.32em" text-anchor="end">${reasonLabel(language, reason.reason)}</text>
${reason.count > 0 && html`<rect class="bar" x="${left}" y="${round(top)}" width="${round(x(reason.count) - left)}" height="${round(y.bandwidth())}" fill="${BAR}"/>`}
<text x="${round(x(reason.count) + 4)}" y="${middle}" dy="0.32em">${formatNumber(language, reason.count)}</text>`;
  });
  const drawing = svg(id, title, description, height, [
    html`<g aria-hidden="true">${grid}
${axisLine(left, left, MARGIN.top, baseline)}
<text x="${round((left + WIDTH - MARGIN.right) / 2)}" y="${height - 6}" text-anchor="middle">${say(language, {
      de: 'Anzahl Meldungen',
      en: 'Number of reports',
    })}</text></g>`,
    html`<g>${bars}</g>`,
  ]);

  const rows = reasons.map(
    (reason) => html`<tr><th scope="row">${reasonLabel(language, reason.reason)}</th><td>${reason.count}</td></tr>`,
  );
  const table = html`<table>
<caption>${title} (${longDay(language, range.from)} – ${longDay(language, range.to)})</caption>
<thead><tr><th scope="col">${say(language, { de: 'Grund', en: 'Ground' })}</th><th scope="col">${say(language, {
    de: 'Meldungen',
    en: 'Reports',
  })}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th scope="row">${say(language, TOTAL)}</th><td>${total}</td></tr></tfoot>
</table>`;
  return figure(id, title, drawing, `${say(language, TABLE)}: ${title}`, table);
}

/** A line of the median hours to decision per day (gaps on days without a decision), the overall median dashed. */
export function decisionHoursChart(
  language: ChartLanguage,
  id: string,
  figures: Pick<ConsoleFigures, 'decisionHours' | 'medianHours' | 'decisions'>,
): SafeHtml {
  const title = say(language, { de: 'Median der Stunden bis zur Entscheidung', en: 'Median hours to decision' });
  const days = figures.decisionHours;
  const decidedDays = days.filter((day) => day.hours !== null).length;
  const hours = (value: number) => formatNumber(language, round(value));
  const description =
    figures.medianHours === null
      ? language === 'de'
        ? `Keine Entscheidungen über Meldungen ${periodOf(language, days)}.`
        : `No decisions on reports ${periodOf(language, days)}.`
      : language === 'de'
        ? `Median über ${figures.decisions === 1 ? 'die eine Entscheidung' : `alle ${figures.decisions} Entscheidungen`} ${periodOf(language, days)}: ${hours(figures.medianHours)} Stunden; entschieden wurde an ${decidedDays} von ${days.length} Tagen.`
        : `Median over ${figures.decisions === 1 ? 'the one decision' : `all ${figures.decisions} decisions`} ${periodOf(language, days)}: ${hours(figures.medianHours)} hours; decisions were made on ${decidedDays} of ${days.length} days.`;

  const baseline = HEIGHT - MARGIN.bottom;
  const x = dayScale(days.map((day) => day.day));
  const highest = Math.max(1, ...days.map((day) => day.hours ?? 0));
  // The legend stands above the plot.
  const top = MARGIN.top + 24;
  const y = scaleLinear().domain([0, highest]).nice(5).range([baseline, top]);
  const centre = (day: DayMedian) => round((x(day.day) ?? 0) + x.bandwidth() / 2);
  const path = line<DayMedian>()
    .defined((day) => day.hours !== null)
    .x(centre)
    .y((day) => y(day.hours ?? 0))
    .digits(1)(days);
  const point = (cx: number, cy: number) =>
    html`<circle class="point" cx="${cx}" cy="${round(cy)}" r="3.5" fill="${BAR}"/>`;
  const points = days.flatMap((day) => (day.hours === null ? [] : [point(centre(day), y(day.hours))]));
  const reference = (x1: number, x2: number, at: number) =>
    html`<line class="reference" x1="${round(x1)}" x2="${round(x2)}" y1="${round(at)}" y2="${round(at)}" stroke="currentColor" stroke-width="1.5" stroke-dasharray="6 4"/>`;
  const legendY = MARGIN.top;
  const legend = html`<g aria-hidden="true">
<line class="series" x1="${MARGIN.left}" x2="${MARGIN.left + 28}" y1="${legendY}" y2="${legendY}" stroke="${BAR}" stroke-width="2"/>${point(MARGIN.left + 14, legendY)}
<text x="${MARGIN.left + 36}" y="${legendY}" dy="0.32em">${say(language, { de: 'Median pro Tag', en: 'Median per day' })}</text>
${
  figures.medianHours !== null &&
  html`${reference(MARGIN.left + 260, MARGIN.left + 288, legendY)}
<text x="${MARGIN.left + 296}" y="${legendY}" dy="0.32em">${say(language, {
    de: 'Median gesamt',
    en: 'Overall median',
  })}: ${hours(figures.medianHours)} ${say(language, { de: 'Std.', en: 'h' })}</text>`
}</g>`;
  const overall = figures.medianHours !== null && reference(MARGIN.left, WIDTH - MARGIN.right, y(figures.medianHours));
  const none =
    figures.medianHours === null &&
    html`<text x="${round((MARGIN.left + WIDTH - MARGIN.right) / 2)}" y="${round((top + baseline) / 2)}" text-anchor="middle">${say(
      language,
      { de: 'Keine Entscheidungen', en: 'No decisions' },
    )}</text>`;
  const drawing = svg(id, title, description, HEIGHT, [
    valueAxis(language, y, { de: 'Stunden', en: 'Hours' }, false),
    legend,
    html`<g>${overall}${path && html`<path class="series" d="${path}" fill="none" stroke="${BAR}" stroke-width="2"/>`}${points}${none}</g>`,
    dayAxis(language, x, baseline, HEIGHT),
  ]);

  const rows = days.map(
    (day) =>
      html`<tr>${dayCell(language, day.day)}<td>${day.decisions}</td><td>${day.hours === null ? '–' : hours(day.hours)}</td></tr>`,
  );
  const table = html`<table>
<caption>${title}</caption>
<thead><tr><th scope="col">${say(language, DAY)}</th><th scope="col">${say(language, {
    de: 'Entscheidungen',
    en: 'Decisions',
  })}</th><th scope="col">${say(language, { de: 'Median (Stunden)', en: 'Median (hours)' })}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th scope="row">${say(language, { de: 'Alle Tage', en: 'All days' })}</th><td>${figures.decisions}</td><td>${
    figures.medianHours === null ? '–' : hours(figures.medianHours)
  }</td></tr></tfoot>
</table>`;
  return figure(id, title, drawing, `${say(language, TABLE)}: ${title}`, table);
}

/** All the charts of the last 30 days in one section with its heading; `idPrefix` keeps the ids unique on the page. */
export function chartsSection(language: ChartLanguage, figures: ConsoleFigures, idPrefix = 'figures'): SafeHtml {
  const heading = say(language, { de: 'Zahlen der letzten 30 Tage', en: 'Figures of the last 30 days' });
  return html`<section aria-labelledby="${idPrefix}-heading">
<h2 id="${idPrefix}-heading">${heading}</h2>
<p>${
    language === 'de'
      ? `Vom ${longDay(language, figures.from)} bis ${longDay(language, figures.to)}, Tage in UTC.`
      : `From ${longDay(language, figures.from)} to ${longDay(language, figures.to)}, days in UTC.`
  }</p>
${countChart(language, `${idPrefix}-signups`, 'signups', figures.signups)}
${countChart(language, `${idPrefix}-jobs`, 'jobs', figures.jobs)}
${countChart(language, `${idPrefix}-bookings`, 'bookings', figures.bookings)}
${reasonsChart(language, `${idPrefix}-reports`, figures.reportsByReason, figures)}
${decisionHoursChart(language, `${idPrefix}-decisions`, figures)}
</section>`;
}
