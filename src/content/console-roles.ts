/** The console's words about who may use what (decision 032). */
export const ownersOnlyCopy = {
  title: 'For the owner only',
  text: 'This page is for the owner of the console. You are signed in as a helper: you can read and answer leads and bookings.',
  back: 'Go to the overview',
};
