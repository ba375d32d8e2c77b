/** Where background work (polling, reconnecting) reports: the app's logger. */
export interface JobLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}
