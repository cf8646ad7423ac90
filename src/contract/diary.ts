/**
 * The owner's diary (src/server/console/diary.ts): the secret address of the calendar
 * subscription that shows every confirmed session and published masterclass in the owner's own
 * calendar, and replacing it. The owner's alone: the address opens the names of every applicant.
 */
import { route } from './route';

/** The address, as https (to paste) and as webcal (to open in a calendar app); null until made. */
export type DiaryAnswer = {
  address: { https: string; webcal: string; createdAt: string } | null;
};

export const diaryRoutes = {
  view: route<DiaryAnswer>()({ method: 'GET', path: '/diary' }),
  /** Makes the address, or replaces it: every address made before then answers 404. */
  replace: route<DiaryAnswer>()({ method: 'POST', path: '/diary/address' }),
};
