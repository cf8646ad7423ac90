import type { useFormGuard } from '~/lib/use-form-guard';

/** The honeypot every form carries (see lib/form-guard.ts): off-screen, hidden from assistive technology. */
export function HoneypotField({
  inputProps,
}: {
  inputProps: ReturnType<typeof useFormGuard>['honeypotProps'];
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
