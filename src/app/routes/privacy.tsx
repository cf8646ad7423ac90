import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/privacy', title: 'privacy', description: 'privacy' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">privacy</h1>
    </section>
  );
}
