import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/resources', title: 'resources', description: 'resources' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">resources</h1>
    </section>
  );
}
