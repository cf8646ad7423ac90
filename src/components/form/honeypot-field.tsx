import type { useSpamTraps } from '~/lib/use-spam-traps';

/** The honeypot every form carries (see lib/spam-traps.ts): off-screen, hidden from assistive technology. */
export function HoneypotField({
  inputProps,
}: {
  inputProps: ReturnType<typeof useSpamTraps>['honeypotProps'];
}) {
  return (
    <div aria-hidden="true" className="trap">
      <label>
        Website
        <input {...inputProps} />
      </label>
    </div>
  );
}
