import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/services', title: 'services', description: 'services' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">services</h1>
    </section>
  );
}
