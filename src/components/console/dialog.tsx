/** Confirmation for what cannot be undone: a button that asks first. */
import { useId, useRef } from 'react';
import { consoleCopy } from '~/content/console';

/**
 * A button that asks first: a modal dialog (the browser's own, which keeps focus inside it and
 * closes on Escape) with the consequence spelled out, the action, and a way out.
 */
export function ConfirmButton({
  label,
  title,
  text,
  confirmLabel,
  cancelLabel = consoleCopy.cancel,
  onConfirm,
  disabled,
  className = 'btn btn-secondary',
  describedBy,
}: {
  label: string;
  title: string;
  text: string;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
  /** Names what the button acts on, for a list of many alike (e.g. the row's heading). */
  describedBy?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = () => {
    dialog.current?.close();
  };
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={className}
        disabled={disabled}
        aria-describedby={describedBy}
        aria-haspopup="dialog"
        onClick={() => dialog.current?.showModal()}
      >
        {label}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-ink-200 bg-white p-6 text-ink-900 shadow-xl backdrop:bg-ink-900/50"
        onClose={() => trigger.current?.focus()}
      >
        <h2 id={`${id}-title`} className="text-lg font-bold wrap-anywhere">
          {title}
        </h2>
        <p id={`${id}-text`} className="mt-2 wrap-anywhere text-ink-700">
          {text}
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button type="button" className="btn btn-secondary" onClick={close}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className="btn bg-danger-700 text-white hover:bg-ink-900"
            onClick={() => {
              close();
              onConfirm();
            }}
          >
            {confirmLabel ?? label}
          </button>
        </div>
      </dialog>
    </>
  );
}
