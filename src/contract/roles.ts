/**
 * Who may use what in the console (decision 032). Every address that may sign in has a role:
 * the owner may use everything; a helper may read and answer leads and bookings (the overview,
 * the inbox, spam, the bookings board, the masterclasses to read, their own security and their
 * own entries of the audit log) and nothing else. A console route names the role it needs
 * (`role` of `route()`); a route that names none is the owner's, so a new route is closed to
 * helpers until it says otherwise. The server refuses a route the role may not use before its
 * handler runs; the console hides it, reading the same declaration.
 */
import type { RouteSpec } from './route';

export const CONSOLE_ROLES = ['owner', 'helper'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export const roleLabels: Record<ConsoleRole, string> = {
  owner: 'Owner',
  helper: 'Helper',
};

/** The 403 of a route the signed-in person's role may not use. */
export const ROLE_REFUSED = 'Only the owner may do this. You are signed in as a helper.';

/** The role a route needs: its own, or the owner's when it names none. */
export function roleOf(route: RouteSpec): ConsoleRole {
  return route.role ?? 'owner';
}

/** Whether `role` may use `route`: the owner may use every route, a helper only a helper's. */
export function mayUse(role: ConsoleRole, route: RouteSpec): boolean {
  return role === 'owner' || roleOf(route) === 'helper';
}
