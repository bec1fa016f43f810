// The growth chart of the bench: cost against data size, drawn with Vega-Lite (a well-kept
// declarative charting library that renders SVG in Node without a browser or native packages).
import * as vega from 'vega';
import { compile } from 'vega-lite';

/**
 * points: { engine, jobs, scenario, rps }[]. Returns an SVG: requests per second (log) against
 * open jobs (log), a line per scenario, a panel per engine.
 */
export async function growthChart(points) {
  const spec = compile({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'Cost against data size: requests per second (wrk, same machine) by number of jobs',
    data: { values: points },
    facet: { column: { field: 'engine', type: 'nominal', title: null } },
    spec: {
      width: 320,
      height: 240,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'jobs',
          type: 'quantitative',
          scale: { type: 'log' },
          title: 'jobs in the database',
          axis: { format: '~s' },
        },
        y: { field: 'rps', type: 'quantitative', scale: { type: 'log' }, title: 'requests per second' },
        color: { field: 'scenario', type: 'nominal', title: 'scenario' },
      },
    },
    config: { background: 'white', font: 'sans-serif' },
  }).spec;
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
