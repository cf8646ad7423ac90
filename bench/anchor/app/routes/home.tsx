export function meta() {
  return [
    { title: 'A minimal page' },
    { name: 'description', content: 'One heading and one paragraph, prerendered by React Router.' },
  ];
}

export default function Home() {
  return (
    <main>
      <h1>A minimal page</h1>
      <p>One heading and one paragraph: what React Router costs a page before any of its own code.</p>
    </main>
  );
}
