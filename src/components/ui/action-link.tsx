import { Link } from 'react-router';

type Variant = 'primary' | 'secondary' | 'dark' | 'light';

const VARIANT_CLASS: Record<Variant, string> = {
  primary: 'btn btn-primary',
  secondary: 'btn btn-secondary',
  dark: 'btn btn-dark',
  light: 'btn btn-light',
};

type Props = {
  to: string;
  children: React.ReactNode;
  variant?: Variant;
  className?: string;
  onClick?: React.MouseEventHandler<HTMLAnchorElement>;
  download?: string;
};

/**
 * A link styled as a button. Site paths go through the router (client navigation, scroll
 * handling); in-page anchors, mailto: links and files stay plain anchors.
 */
export function ActionLink({ to, children, variant = 'primary', className = '', onClick, download }: Props) {
  const classes = `${VARIANT_CLASS[variant]} ${className}`.trim();
  const isRoute =
    to.startsWith('/') && download === undefined && !/\.[a-z0-9]+$/i.test(to.split('#')[0] ?? '');
  if (isRoute) {
    return (
      <Link to={to} className={classes} onClick={onClick}>
        {children}
      </Link>
    );
  }
  return (
    <a href={to} className={classes} onClick={onClick} download={download}>
      {children}
    </a>
  );
}
