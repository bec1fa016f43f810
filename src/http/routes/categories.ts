import { CATEGORIES, CATEGORY_INFO, type Category } from '../../domain/categories.js';
import { priceBand } from '../../domain/pricing.js';
import { CategoriesQuery, type CategoryItem, CategoryList } from '../../schemas/categories.js';
import { type CategoryFigures, categoryFigures } from '../../services/figures.js';
import { errorResponses } from '../error-catalogue.js';
import { requestLanguage, sayLanguage } from '../language.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { documented } from '../sandbox-naming.js';

function categoryItem(
  category: Category,
  figures: CategoryFigures,
  lang: 'de' | 'en',
  type?: 'service' | 'borrowing',
): CategoryItem {
  const info = CATEGORY_INFO[category];
  const item: CategoryItem = { id: category, name: info.name[lang], description: info.description[lang] };
  if (type !== 'borrowing') {
    item.service = {
      open_jobs: figures.openJobs.get(category) ?? 0,
      completed_jobs: figures.completedJobs.get(category) ?? 0,
      price_per_hour_eur: priceBand(figures.hourlyRateAll.get(category)),
      price_per_job_eur: priceBand(figures.openJobPrice.get(category)),
    };
  }
  if (type !== 'service') {
    item.borrowing = {
      listings: figures.availableListings.get(category) ?? 0,
      price_per_day_eur: priceBand(figures.dayPrice.get(category)),
      price_per_week_eur: priceBand(figures.weekPrice.get(category)),
      deposit_eur: priceBand(figures.deposit.get(category)),
    };
  }
  return item;
}

export function categoryRoutes(app: Api, { base, db, now, searchIndex }: RouteDeps): void {
  app.get(
    `${base}/categories`,
    {
      config: { cache: 'public', language: true },
      schema: documented(base, {
        operationId: 'getCategories',
        summary: 'Categories with live price ranges',
        description:
          'Every category with its name and description in `lang` (else by Accept-Language: German or English), and price bands (10th percentile, median, 90th percentile) from current data: per helper-hour and per job for services, per day, per week and deposit for borrowing. `type` keeps only the figures relevant to services or to borrowing.',
        tags: ['Categories and pricing'],
        querystring: CategoriesQuery,
        response: { 200: ok(CategoryList, 'All categories with their price ranges.'), ...errorResponses(400) },
      }),
    },
    async (request, reply) => {
      // `lang` when given; else the caller's Accept-Language (issue 36). Either way the answer says it.
      const lang = request.query.lang ?? requestLanguage(request);
      sayLanguage(reply, lang);
      const type = request.query.type;
      const figures = await categoryFigures(db, now(), searchIndex && (() => searchIndex(request)));
      const data = CATEGORIES.map((category) => categoryItem(category, figures, lang, type));
      return { data, total: data.length, lang, type: type ?? null, currency: 'EUR' as const };
    },
  );
}
