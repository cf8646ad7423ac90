/**
 * The Newsletter pages' requests, made from the contract's routes (issues-console-contract.ts):
 * a route's path under /api/owner with its `:id` filled, its answer's type, and what an issue's
 * status allows (editing, sending, live progress).
 */
import type { AnswerOf, Route } from '~/contract/route';
import { post } from '~/components/console/http';
import { page } from '~/components/console/paths';
import type { IssueInput, IssueStatus } from '../issues-console-contract';

/** A route's path under /api/owner: `/newsletter/issues/:id` with the issue's id. */
export function apiPath(route: Route, id?: string): string {
  return id === undefined ? route.path : route.path.replace(':id', encodeURIComponent(id));
}

/** POSTs to one of the contract's routes; the answer is the route's. */
export function postTo<R extends Route>(route: R, id?: string, body: unknown = {}) {
  return post<AnswerOf<R>>(apiPath(route, id), body);
}

/** The console page of one issue. */
export const issuePage = (id: string) => page(`newsletter/${encodeURIComponent(id)}`);

/** A draft or a scheduled issue can still be changed and sent (the server answers 409 otherwise). */
export const isEditable = (status: IssueStatus) => status === 'draft' || status === 'scheduled';

/** An issue whose progress changes while it is shown: the page asks again every 2 s. */
export const isGoingOut = (status: IssueStatus) => status === 'sending' || status === 'paused';

export const statusTones: Record<IssueStatus, 'neutral' | 'good' | 'bad' | 'warn'> = {
  draft: 'neutral',
  scheduled: 'warn',
  sending: 'warn',
  paused: 'warn',
  sent: 'good',
  cancelled: 'bad',
};

/** What the form holds: the three fields as typed. */
export type IssueValues = { subject: string; preheader: string; body: string };

export const EMPTY_ISSUE: IssueValues = { subject: '', preheader: '', body: '' };

export function valuesOf(issue: IssueValues): IssueValues {
  return { subject: issue.subject, preheader: issue.preheader, body: issue.body };
}

/** What the server reads (it trims each field again). */
export function inputOf(values: IssueValues): IssueInput {
  return { subject: values.subject.trim(), preheader: values.preheader.trim(), body: values.body.trim() };
}

/** Whether the typed values differ from the saved issue's (beyond spaces the server trims). */
export function differs(values: IssueValues, saved: IssueValues): boolean {
  const typed = inputOf(values);
  return typed.subject !== saved.subject || typed.preheader !== saved.preheader || typed.body !== saved.body;
}
