import { articlePath, type ArticleMeta } from '~/content/articles';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2025-06-15" -> "15 Jun 2025", the same at build time and in every browser time zone. */
export function formatShortDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

/**
 * Cards of articles (the spec's Article display: type, date, title, excerpt), each linking to its
 * page. The link's arrow is the caller's: an icon imported here would be shared by the Resources
 * page and the articles' route, and split into a chunk of its own that the home page would load
 * too (decision 022).
 */
export function ArticleList({
  articles,
  readLabel,
  arrow,
}: {
  articles: readonly ArticleMeta[];
  readLabel: string;
  arrow: React.ReactNode;
}) {
  return (
    <ul className="mt-10 grid gap-6 md:grid-cols-3">
      {articles.map((article) => (
        <li key={article.slug}>
          <article className="card flex h-full flex-col">
            <p className="flex items-center gap-3 text-sm">
              <span className="rounded-full bg-brand-100 px-2.5 py-0.5 font-semibold text-brand-800">
                Article
              </span>
              <time dateTime={article.date} className="text-ink-600">
                {formatShortDate(article.date)}
              </time>
            </p>
            <h3 className="mt-4 text-lg leading-snug font-semibold text-ink-900">{article.title}</h3>
            <p className="mt-3 flex-1 leading-relaxed text-ink-700">{article.summary}</p>
            <a
              href={articlePath(article.slug)}
              className="mt-6 inline-flex items-center gap-1.5 self-start rounded font-semibold text-brand-700 hover:text-brand-800 hover:underline"
            >
              {readLabel}
              <span className="sr-only">: {article.title}</span>
              {arrow}
            </a>
          </article>
        </li>
      ))}
    </ul>
  );
}
