import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/terms', title: 'terms', description: 'terms' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">terms</h1>
    </section>
  );
}
