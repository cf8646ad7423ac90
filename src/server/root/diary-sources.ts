/**
 * What the owner's diary shows (src/server/console/diary.ts): each feature that puts something in
 * the owner's calendar declares its entries in its own folder; a new one is its module and one
 * line here.
 */
import type { DiarySource } from '../kit/diary';
import { bookingDiary } from '~/features/booking/booking-diary.server';
import { eventsDiary } from '~/features/events/events-diary.server';

export const DIARY_SOURCES: readonly DiarySource[] = [bookingDiary, eventsDiary];
