import type { ComponentChildren } from 'preact';
import type { Resource } from '../api/use-resource';

/** What a page shows while its data loads or when the API refused it, else the page itself. */
export const Loaded = <T,>({
  resource,
  what,
  children,
}: {
  resource: Resource<T>;
  what: string;
  children: (value: T) => ComponentChildren;
}) => {
  if (resource.state === 'loading')
    return (
      <p role="status" class="status">
        Loading {what}…
      </p>
    );
  if (resource.state === 'failed')
    return (
      <p role="alert" class="problem">
        Could not load {what}: {resource.error.message}
      </p>
    );
  return <>{children(resource.value)}</>;
};
