import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '~/components/toast/toast-store';
import { publicEnv } from '~/lib/env';
import { loadVapiClient } from './vapi-client';
import { createVoiceController, isVoiceConfigured, type VoiceController } from './voice-controller';
import { initialVoiceState, type VoiceState } from './voice-machine';

/**
 * The simulator's state for a component, with the SDK loaded on mount. The prerendered HTML
 * shows the same first state (initializing, or unavailable without a key), so hydration matches.
 */
export function useVoiceSimulator(): { state: VoiceState; press: () => void } {
  const publicKey = publicEnv.vapiPublicKey;
  const assistantId = publicEnv.vapiAssistantId;
  const [state, setState] = useState(() => initialVoiceState(isVoiceConfigured({ publicKey, assistantId })));
  const controller = useRef<VoiceController | null>(null);

  useEffect(() => {
    const current = createVoiceController({
      config: { publicKey, assistantId },
      loadClient: loadVapiClient,
      notify: (t) => toast(t),
      onChange: setState,
    });
    controller.current = current;
    void current.init();
    return () => {
      current.dispose();
      if (controller.current === current) controller.current = null;
    };
  }, [publicKey, assistantId]);

  const press = useCallback(() => controller.current?.press(), []);
  return { state, press };
}
