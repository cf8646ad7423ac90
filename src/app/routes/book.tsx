import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/book', title: 'book', description: 'book' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">book</h1>
    </section>
  );
}
