import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/contact', title: 'contact', description: 'contact' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">contact</h1>
    </section>
  );
}
