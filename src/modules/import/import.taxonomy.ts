import type { Problems } from './import.checks.js';
import type { ImportRepository } from './import.repository.js';
import type { Dataset } from './import.schemas.js';

interface Node {
  dimension_id: number;
  parent_id: number | null;
  /** Where the dataset carries the node (`tag_types[3]`); undefined for a stored one. */
  field?: string;
}

/**
 * The tag taxonomy must stay a forest after the import: every parent exists, a child is in its
 * parent's dimension, and no tag type is its own ancestor. The dataset's tag types are laid over
 * the whole stored taxonomy (it is small: hundreds of rows), because a dataset may move a stored
 * parent to another dimension or under one of its own descendants.
 */
export async function checkTagTree(dataset: Dataset, repo: ImportRepository, options: { replace: boolean }, problems: Problems): Promise<void> {
  const tagTypes = dataset.tag_types ?? [];
  if (tagTypes.length === 0) return;
  const nodes = new Map<number, Node>();
  if (!options.replace) for (const row of await repo.tagTree()) nodes.set(row.id, row);
  tagTypes.forEach((t, i) => nodes.set(t.id, { dimension_id: t.dimension_id, parent_id: t.parent_id ?? null, field: `tag_types[${i}]` }));

  for (const [id, node] of nodes) {
    if (node.parent_id === null) continue;
    const at = node.field ?? `stored tag type ${id}`;
    const parent = nodes.get(node.parent_id);
    if (parent === undefined) {
      if (node.field !== undefined) problems.add(`${at}.parent_id`, 'reference', `names no tag type (id ${node.parent_id}) in the dataset or the database`);
      continue;
    }
    if (parent.dimension_id !== node.dimension_id) {
      problems.add(`${at}.dimension_id`, 'same_dimension', `must be the dimension of its parent ${node.parent_id} (${parent.dimension_id})`);
    }
    if (isOwnAncestor(id, nodes)) problems.add(`${at}.parent_id`, 'acyclic', `makes tag type ${id} its own ancestor`);
  }
}

function isOwnAncestor(id: number, nodes: ReadonlyMap<number, Node>): boolean {
  const seen = new Set<number>();
  for (let at = nodes.get(id)?.parent_id ?? null; at !== null; at = nodes.get(at)?.parent_id ?? null) {
    if (at === id) return true;
    // A cycle above this node, not through it: reported at the nodes on it.
    if (seen.has(at)) return false;
    seen.add(at);
  }
  return false;
}
