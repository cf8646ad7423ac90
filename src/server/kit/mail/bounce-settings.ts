/** The bounce listener's settings, checked against the addresses that receive people's mail. */
import { ConfigError } from '../data-dir-files';

/**
 * The bounce listener's settings. The bounce domain must be a domain of its own: MAIL_FROM's, the
 * console's addresses' and any domain above them receive people's mail, all of which the
 * listener refuses once the domain's MX points at it.
 */
export function bounceSettings(
  domain: string | undefined,
  port: number,
  host: string,
  peopleAddresses: readonly string[],
) {
  if (!domain) return undefined;
  const own = domain.toLowerCase();
  const taken = peopleAddresses
    .map((address) => (address.split('@')[1] ?? '').toLowerCase())
    .find((used) => used === own || used.endsWith(`.${own}`));
  if (taken !== undefined) {
    throw new ConfigError(
      `BOUNCE_DOMAIN must be a domain of its own (e.g. bounces.${taken}), not one that receives people's mail (${taken}, of MAIL_FROM or a console address): the bounce listener refuses every message that is not a bounce.`,
    );
  }
  return { domain: own, port, host };
}
