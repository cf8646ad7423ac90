/** Words every form shares, in the browser and in the server's answers. */

/** A form sent too often (spec section 9): the browser's own limit and the server's 429 say the same. */
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait before trying again.';
