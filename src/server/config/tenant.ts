import { readFile } from 'node:fs/promises';
import {
  describeConfigIssues,
  type TenantConfig,
  tenantConfigSchema,
} from '../../shared/tenant/tenant-config';
import { ConfigError } from './env';

export async function loadTenantConfig(file: string): Promise<TenantConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Cannot read the tenant configuration file ${file} (TENANT_CONFIG): ${(error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `The tenant configuration file ${file} is not valid JSON: ${(error as Error).message}`,
    );
  }
  const result = tenantConfigSchema.safeParse(json);
  if (!result.success) {
    throw new ConfigError(
      `The tenant configuration file ${file} is invalid:\n  ${describeConfigIssues(result.error).join('\n  ')}`,
    );
  }
  return result.data;
}
