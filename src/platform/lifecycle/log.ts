/**
 * Where the process's own machinery (shutdown, the cluster primary, polling, reconnecting)
 * reports: the app's pino logger, or the primary's.
 */
export interface LifecycleLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}
