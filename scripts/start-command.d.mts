/** The arguments `npm start` gives Node to run the built server (scripts/start-command.mjs). */
export function serverArgs(): string[];
