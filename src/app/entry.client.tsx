/**
 * React Router's default client entry, with one change (decision 016): hydration starts in a
 * task of its own. Evaluating React DOM and starting hydration (the root, some 80 event
 * listeners) were one task of some 14 ms at full speed, long on a slow phone; apart, each stays
 * short.
 */
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';

setTimeout(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}, 0);
