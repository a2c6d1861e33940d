import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useRouter } from './routerStore.js';
import { localizePath } from './recordPaths.js';

/** An in-app link: a real <a href> (middle-click works), navigating without a reload. */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const navigate = useRouter((s) => s.navigate);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={localizePath(to)} onClick={onClick} {...rest} />;
}
