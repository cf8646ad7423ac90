import { ArrowLeft } from 'lucide-react';

/** The link back to a page's list (an article's to the articles, an issue's to the archive), below its content. */
export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <a
      href={href}
      className="inline-flex items-center gap-1.5 rounded font-semibold text-brand-700 hover:text-brand-800 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {label}
    </a>
  );
}
