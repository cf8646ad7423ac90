/**
 * The signed-in person's role in the console's screens (decision 032): the layout provides it, and
 * a screen asks whether a route is theirs to use, reading the same declaration the server
 * enforces (`role` of the route, src/contract/roles.ts). What a helper may not use is not shown.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { mayUse, type ConsoleRole } from '~/contract/roles';
import type { RouteSpec } from '~/contract/route';

/** Outside a signed-in console, the stricter role. */
const RoleContext = createContext<ConsoleRole>('helper');

export function RoleProvider({ role, children }: { role: ConsoleRole; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

export function useRole(): ConsoleRole {
  return useContext(RoleContext);
}

/** Whether the signed-in person may use `route`. */
export function useMayUse(route: RouteSpec): boolean {
  return mayUse(useRole(), route);
}

/** Its children when the signed-in person may use `route`; nothing otherwise. */
export function IfMayUse({ route, children }: { route: RouteSpec; children: ReactNode }) {
  return useMayUse(route) ? <>{children}</> : null;
}
