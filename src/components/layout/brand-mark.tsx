/** The logo: a coin-like mark beside the brand name. Decorative; the name is the text. */
export function BrandMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 32 32" className={className}>
      <circle cx="16" cy="16" r="15" fill="#b9470b" />
      <circle cx="16" cy="16" r="11.5" fill="none" stroke="#fed7aa" strokeWidth="1.2" opacity=".7" />
      <path
        d="M20.6 11.4C20.1 9.4 18.5 8 16.3 8c-2.4 0-3.9 1.7-3.9 4.1v7c0 2.1-.6 3.7-1.9 4.9h11.3M10 16.6h7.6"
        fill="none"
        stroke="#fff"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
    </svg>
  );
}
