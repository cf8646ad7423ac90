/** Types of ./deploy-env.mjs, for the tests. */
export function deployEnv(
  options: Partial<Record<'domain' | 'owner' | 'from' | 'smtp' | 'name' | 'dkim-selector', string>>,
  secret?: string,
): { text?: string; error?: string };
