/**
 * The newsletter's issues in the owner's console (./issues-console-contract.ts): the routes, each
 * owner action written to the audit log in its own transaction. The work is ./issues.server.ts.
 */
import { audit } from '~/server/kit/audit';
import type { Queryable } from '~/server/kit/db/client';
import type { ConsoleArea, ConsoleServices } from '~/server/kit/http/owner-routes';
import { Refusal } from '~/server/kit/http/request-checks';
import { unsubscribeAddress } from '~/server/kit/mail/verp';
import { articleChoices, issueFromArticle, type ArticleTexts } from './issue-articles.server';
import { putOnSite, takeOffSite } from './issue-archive.server';
import { sendIssue, sendTest } from './issue-sending.server';
import { issueRoutes } from './issues-console-contract';
import {
  cancelIssue,
  createIssue,
  issueDetail,
  IssueRefusal,
  listIssues,
  pauseIssue,
  previewIssue,
  resumeIssue,
  unscheduleIssue,
  updateIssue,
  type IssueDeps,
  type RecordAction,
} from './issues.server';

/** What the issues need, from the console's services. */
export function issueDeps(
  services: Pick<ConsoleServices, 'config' | 'db' | 'links' | 'wakeOutbox'>,
  businessAddress?: IssueDeps['businessAddress'],
): IssueDeps {
  const { config, db, links, wakeOutbox } = services;
  const bounceDomain = config.bounce?.domain;
  return {
    db,
    links,
    unsubscribeMailto: bounceDomain
      ? (subscriberId) => unsubscribeAddress(config.appSecret, bounceDomain, subscriberId.replace(/-/g, ''))
      : undefined,
    publicUrl: config.publicUrl,
    postalAddress: config.newsletter.postalAddress,
    businessAddress,
    // The owners' own addresses: a helper does not run the newsletter (decision 032).
    testAddresses: config.consoleUsers.filter((user) => user.role === 'owner').map((user) => user.email),
    wakeOutbox,
  };
}

/** An issue's refusal as the console's answer. */
async function answering<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof IssueRefusal) throw new Refusal(error.status, { error: error.message });
    throw error;
  }
}

/**
 * The newsletter's issues; `articles` reads the published articles an issue may start from,
 * `businessAddress` the business's address for the footer (when NEWSLETTER_POSTAL_ADDRESS is not
 * set); `onPublished` is told after an issue is put on the site or taken off (the site renders again).
 */
export const issuesArea =
  (articles: ArticleTexts, businessAddress?: IssueDeps['businessAddress'], onPublished?: () => void): ConsoleArea =>
  (routes, services) => {
    const { db, clock } = services;
    const deps = issueDeps(services, businessAddress);
    const recorder =
      (actor: string, action: string) =>
      (target: string): RecordAction =>
      (tx: Queryable, detail?: Record<string, number>) =>
        audit(tx, actor, `newsletter.${action}`, target, detail);

    routes.on(issueRoutes.list, async () => ({ items: await listIssues(db) }));
    routes.on(issueRoutes.detail, ({ params }) => answering(issueDetail(db, params.id)));
    routes.on(issueRoutes.create, ({ body, owner }) =>
      createIssue(db, body, recorder(owner.email, 'create')),
    );
    routes.on(issueRoutes.update, ({ params, body, owner }) =>
      answering(updateIssue(db, params.id, body, recorder(owner.email, 'update')(params.id))),
    );
    routes.on(issueRoutes.articles, async () => ({ items: articleChoices(await articles(db)) }));
    routes.on(issueRoutes.fromArticle, async ({ body, owner }) => {
      const filled = issueFromArticle(await articles(db), body.slug, services.config.publicUrl);
      if (!filled) throw new Refusal(404, { error: 'There is no such article.' });
      return createIssue(db, filled, recorder(owner.email, 'create'));
    });
    routes.on(issueRoutes.preview, ({ params }) => answering(previewIssue(deps, params.id)));
    routes.on(issueRoutes.test, async ({ params, owner }) => ({
      sentTo: await answering(sendTest(deps, params.id, recorder(owner.email, 'test')(params.id))),
    }));
    routes.on(issueRoutes.send, ({ params, body, owner }) =>
      answering(
        sendIssue(deps, params.id, body.at, (action) => recorder(owner.email, action)(params.id), clock()),
      ),
    );
    routes.on(issueRoutes.unschedule, ({ params, owner }) =>
      answering(unscheduleIssue(db, params.id, recorder(owner.email, 'unschedule')(params.id))),
    );
    routes.on(issueRoutes.pause, ({ params, owner }) =>
      answering(pauseIssue(db, params.id, recorder(owner.email, 'pause')(params.id))),
    );
    routes.on(issueRoutes.resume, ({ params, owner }) =>
      answering(resumeIssue(deps, params.id, recorder(owner.email, 'resume')(params.id))),
    );
    routes.on(issueRoutes.cancel, ({ params, owner }) =>
      answering(cancelIssue(db, params.id, recorder(owner.email, 'cancel')(params.id))),
    );
    routes.on(issueRoutes.putOnSite, async ({ params, owner }) => {
      const detail = await answering(putOnSite(db, params.id, recorder(owner.email, 'site')(params.id)));
      onPublished?.();
      return detail;
    });
    routes.on(issueRoutes.takeOffSite, async ({ params, owner }) => {
      const detail = await answering(takeOffSite(db, params.id, recorder(owner.email, 'site-remove')(params.id)));
      onPublished?.();
      return detail;
    });
  };
