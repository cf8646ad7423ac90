import { useCallback, useState } from 'react';

type Props = {
  src: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
};

/**
 * An image that removes itself when it fails to load, instead of showing a broken icon.
 * The prerendered image may fail before React hydrates and attaches onError, so the ref
 * also checks, on attach, for an image that already finished without any pixels.
 */
export function OptionalImage({ src, alt, width, height, className }: Props) {
  const [failed, setFailed] = useState(false);
  const checkAlreadyFailed = useCallback((img: HTMLImageElement | null) => {
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, []);

  if (failed) return null;
  return (
    <img
      ref={checkAlreadyFailed}
      src={src}
      alt={alt}
      width={width}
      height={height}
      decoding="async"
      className={className}
      onError={() => setFailed(true)}
    />
  );
}
