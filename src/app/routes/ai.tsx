import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/ai', title: 'ai', description: 'ai' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">ai</h1>
    </section>
  );
}
