import { haversineKm, type LatLng } from './geo.js';

/** Average speed through Karlsruhe traffic by bike, tram or car, door to door. */
export const TRAVEL_KMH = 20;

export interface EtaHelper extends LatLng {
  avg_response_minutes: number;
}

/**
 * smart_eta_minutes: how soon the quickest verified, available helper of the category could be
 * there: their average response time plus travel time to the job. Remote tasks need no travel.
 * Null when no such helper is within `maxKm` (or at all, for remote tasks).
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
  return best === null ? null : Math.round(best);
}
