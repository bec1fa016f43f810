// Types of relevance.mjs for the TypeScript test that imports it.
export interface RelevanceQuery {
  resource: 'jobs' | 'listings';
  q: string;
  near?: string;
  note?: string;
  known_failure?: string;
  judge: { must?: string; must_category?: string; relevant?: string; not?: string };
  must: string[];
  also_relevant?: string[];
  must_not?: string[];
}
export interface QueryScore {
  query: RelevanceQuery;
  recall: number;
  precision: number;
  missing: string[];
  irrelevant: string[];
  violations: string[];
  results: number;
}
export interface RelevanceResult {
  queries: number;
  precision: number;
  recall: number;
  violations: number;
  scored: QueryScore[];
}
export declare const RELEVANCE_DATASET: {
  seed: number;
  jobs: number;
  listings: number;
  helpers: number;
  completedJobs: number;
  anchor: string;
  now: string;
};
export declare const TARGET: { precision: number; recall: number };
export declare const QUERIES_FILE: URL;
export declare function loadQueries(): RelevanceQuery[];
export declare function queryPath(query: RelevanceQuery, page?: { limit?: number; offset?: number }): string;
type Get = (path: string) => Promise<{ data?: { id: string }[] } | unknown>;
export declare function resultIds(query: RelevanceQuery, get: Get): Promise<string[]>;
export declare function scoreQuery(query: RelevanceQuery, ids: string[]): Omit<QueryScore, 'query'>;
export declare function evaluate(queries: RelevanceQuery[], get: Get): Promise<RelevanceResult>;
export declare function relevanceReport(result: RelevanceResult): string;
export declare function openRelevanceApp(root: URL): Promise<{ get: Get; close: () => Promise<void> }>;
