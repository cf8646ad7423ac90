import type { LegalSection } from '~/content/types';
export { formatLongDate } from '~/lib/uk-dates';

/** A legal page's body: a contents list, then each section's paragraphs, lists and tables. */
export function LegalDocument({ sections }: { sections: readonly LegalSection[] }) {
  return (
    <div className="mx-auto max-w-3xl px-4 pb-20">
      <nav aria-label="On this page" className="rounded-xl border border-ink-100 bg-ink-50 p-5">
        <h2 className="text-sm font-semibold tracking-wide text-ink-700 uppercase">On this page</h2>
        <ol className="mt-3 grid list-decimal gap-1.5 pl-5 text-sm">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-brand-700 hover:underline">
                {section.heading}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="mt-12">
          <h2 id={`${section.id}-title`} className="text-2xl font-bold text-ink-900">
            {section.heading}
          </h2>
          {section.blocks.map((block, index) => {
            if (block.kind === 'p') {
              return (
                <p key={index} className="mt-4 leading-relaxed text-ink-800">
                  {block.text}
                </p>
              );
            }
            if (block.kind === 'ul') {
              return (
                <ul key={index} className="mt-4 grid list-disc gap-2 pl-6 leading-relaxed text-ink-800">
                  {block.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              );
            }
            return (
              // A wide table scrolls on its own on small screens instead of widening the page.
              <div
                key={index}
                className="mt-6 overflow-x-auto rounded-xl border border-ink-100"
                // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
                tabIndex={0}
                role="region"
                aria-label={block.caption}
              >
                <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
                  <caption className="sr-only">{block.caption}</caption>
                  <thead className="bg-ink-50 text-ink-900">
                    <tr>
                      {block.head.map((cell) => (
                        <th key={cell} scope="col" className="px-4 py-3 font-semibold">
                          {cell}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-ink-100 text-ink-800">
                    {block.rows.map((row) => (
                      <tr key={row[0]}>
                        {row.map((cell, cellIndex) =>
                          cellIndex === 0 ? (
                            <th
                              key={cellIndex}
                              scope="row"
                              className="px-4 py-3 align-top font-semibold text-ink-900"
                            >
                              {cell}
                            </th>
                          ) : (
                            <td key={cellIndex} className="px-4 py-3 align-top leading-relaxed">
                              {cell}
                            </td>
                          ),
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          })}
        </section>
      ))}
    </div>
  );
}
