/** A route's own hooks of one kind, as a list (Fastify takes one or several), to append to. */
export function hooksOf<H>(hooks: H | H[] | undefined): H[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
