import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/about', title: 'about', description: 'about' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">about</h1>
    </section>
  );
}
