import { haversineKm, type LatLng } from './geo.js';

/** Average speed through Karlsruhe traffic by bike, tram or car, door to door. */
export const TRAVEL_KMH = 20;

/**
 * The step smart_eta_minutes is rounded up to (issue 30, 4): 15 minutes are 5 km at TRAVEL_KMH, ten
 * times the 500 m a job's shown point may lie from its place (domain/geo.ts). An exact ETA told the
 * distance to a helper's point to 333 m a minute, and narrowed the 200-500 m ring to about a third
 * of its area; a band 5 km wide cuts the 1 km ring in at most one arc, and never says "here" (an
 * ETA is at least one step, never 0).
 */
export const ETA_STEP_MINUTES = 15;

/** Minutes rounded up to the next ETA_STEP_MINUTES, at least one step. */
export function coarseEta(minutes: number): number {
  return Math.max(ETA_STEP_MINUTES, Math.ceil(minutes / ETA_STEP_MINUTES) * ETA_STEP_MINUTES);
}

export interface EtaHelper extends LatLng {
  avg_response_minutes: number;
}

/**
 * smart_eta_minutes: how soon the quickest verified, available helper of the category could be
 * there: their average response time plus travel time to the job. Remote tasks need no travel.
 * Null when no such helper is within `maxKm` (or at all, for remote tasks). Rounded up to
 * ETA_STEP_MINUTES (coarseEta), so that it tells no more about where the job is than its shown point.
 */
export function smartEtaMinutes(
  job: LatLng & { remote_task: boolean },
  helpers: readonly EtaHelper[],
  maxKm: number,
): number | null {
  let best: number | null = null;
  for (const helper of helpers) {
    const km = haversineKm(job, helper);
    if (!job.remote_task && km > maxKm) continue;
    const minutes = helper.avg_response_minutes + (job.remote_task ? 0 : (km / TRAVEL_KMH) * 60);
    if (best === null || minutes < best) best = minutes;
  }
  return best === null ? null : coarseEta(best);
}
