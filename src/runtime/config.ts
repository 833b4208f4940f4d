// The configuration of this process: the environment read once, with the agency hosts the datasets declare and
// the market upstreams the registry lists.
import { AGENCY_HOSTS } from '../datasets/registry.js';
import { type Config, readConfig } from '../kernel/config.js';
import { UPSTREAM_SETTINGS } from '../market/upstreams/registry.js';

export function loadConfig(env: Record<string, string | undefined>): Config {
  return readConfig(env, AGENCY_HOSTS, UPSTREAM_SETTINGS);
}
