import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/home', title: 'home', description: 'home' });

export default function Page() {
  return (
    <section className="section pt-28">
      <h1 className="text-4xl font-bold">home</h1>
    </section>
  );
}
