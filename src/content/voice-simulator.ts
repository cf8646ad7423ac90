/**
 * Every word the voice simulator shows or announces. The quoted texts are the spec's
 * (sections 4 and 8) and are the contract: change them only with the spec.
 */
export const voiceStatus = {
  initializing: 'Loading the AI simulator...',
  ready: 'Press the mic to start.',
  connecting: 'Connecting to AI...',
  inCall: 'Call started. You may speak now.',
  ending: 'Ending call...',
  ended: 'Call ended. Click the mic to talk again.',
  error: 'An error occurred. Please try again.',
  initFailed: 'Initialization failed. Please refresh the page.',
  startFailed: (message: string) => `Failed to start call: ${message}. Please try again.`,
  stopFailed: 'Error ending call. Ready for a new call.',
  stopUnavailable: 'Could not stop call (SDK issue). Ready for new call.',
  unavailable: 'The AI voice simulator is not available on this site at the moment.',
} as const;

export const voiceErrorText = {
  initFailed: (message: string) => `Failed to initialize AI simulator: ${message}`,
  startFailed: (message: string) => `Failed to start call: ${message}`,
  /** When the provider gives nothing readable. */
  unknown: 'An unknown Vapi error occurred.',
} as const;

export const voiceButtonLabel = {
  initializing: 'Initializing...',
  ending: 'Ending call...',
  stop: 'Click to stop',
  start: 'Click to talk with Elliot',
} as const;

type ToastText = { readonly title: string; readonly description: string };

export const voiceToast = {
  callEnded: { title: 'Call Ended', description: 'The conversation has finished.' },
  pleaseWait: { title: 'Please Wait', description: 'Previous call is terminating. Please wait a moment.' },
  warmingUp: { title: 'Initializing', description: 'AI is warming up. Please try again shortly.' },
  cannotStart: (error: string): ToastText => ({
    title: 'Error',
    description: `Cannot start call: ${error}. Please refresh.`,
  }),
  duplicateStop: { title: 'Processing', description: 'Call termination is already underway.' },
  notReady: { title: 'Error', description: 'AI Simulator not ready. Please refresh.' },
  failed: (errorText: string): ToastText => ({ title: 'Error', description: errorText }),
  stopFailed: (message: string): ToastText => ({ title: 'Error Stopping Call', description: message }),
} as const satisfies Record<string, ToastText | ((arg: string) => ToastText)>;

export const voiceUi = {
  /** The region's accessible name. */
  regionLabel: 'AI voice simulator',
  unavailableTitle: 'Voice simulator not available',
  unavailableText:
    'The live voice demo is switched off on this site at the moment. You can still book a free strategy session or ask us for demo access.',
  meterLabel: "Elliot's voice level",
  meterSpeaking: 'Elliot is speaking',
  meterSilent: 'Elliot is silent',
  micHint: 'Your browser will ask for microphone access when the call starts.',
} as const;
