/**
 * A console route declared once, for the server that answers it and the browser that calls it:
 * its method and path (under /api/owner), the zod schemas of its path parameters, query and body,
 * and the type of its answer. The server's `ownerRoutes` (src/server/kit/http/owner-routes.ts)
 * parses the input with these schemas before the handler runs and type-checks the handler's
 * answer against `Answer`; the console builds its requests from the same declaration.
 */
import type { z } from '~/lib/zod';

type Schema = z.ZodType;

export type RouteSpec = {
  method: 'GET' | 'POST';
  /** Under /api/owner, with `:name` for a path parameter. */
  path: string;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /**
   * The answer when a path parameter does not parse (an id that cannot exist): 404 with this
   * sentence. Without it, 400 with the schema's message.
   */
  notFound?: string;
  /** The sentence of a 400 for a body that does not parse (default: the first problem's message). */
  invalid?: string;
  /**
   * false: that 400 is `{error}` alone, naming no field, for a body no person types (a signed
   * token, a passkey's answer).
   */
  fieldErrors?: false;
  /** The success status (default 200). */
  status?: 200 | 202;
  /**
   * The largest body the route reads, in bytes, when it carries more than a form does (an
   * article's text); the app's own limit otherwise. A larger one is answered 413.
   */
  bodyLimit?: number;
  /** A file (CSV, JSON) the server sends as an attachment; the console links to it. */
  download?: true;
  /**
   * The role the route needs (src/contract/roles.ts): 'helper' opens it to a helper too. Left out,
   * it is the owner's alone, so a new route is the owner's until it says otherwise.
   */
  role?: 'owner' | 'helper';
};

/** A declared route: its spec, and its answer's type (never a value). */
export type Route<S extends RouteSpec = RouteSpec, Answer = unknown> = S & { readonly __answer?: Answer };

/** `route<Answer>()({ method, path, ... })`: the answer's type is named, the rest inferred. */
export const route =
  <Answer>() =>
  <const S extends RouteSpec>(spec: S): Route<S, Answer> =>
    spec;

type Out<S> = S extends Schema ? z.output<S> : undefined;

export type ParamsOf<R extends Route> = Out<R['params']>;
export type QueryOf<R extends Route> = Out<R['query']>;
export type BodyOf<R extends Route> = Out<R['body']>;
export type AnswerOf<R extends Route> = R extends { readonly __answer?: infer A } ? A : never;
