/**
 * Field paths of a CRD schema as a tree of names: `properties` by name, `items` as "[]", `additionalProperties`
 * as "{}". A leaf is `{}`. Used to compare our CRDs with KubeRay's by paths alone.
 */
export type FieldPathTree = { [name: string]: FieldPathTree };

type Node = { properties?: Record<string, Node>; items?: Node; additionalProperties?: Node | boolean };

export function fieldPathTree(schema: unknown): FieldPathTree {
  const node = schema as Node;
  const tree: FieldPathTree = {};
  for (const name of Object.keys(node.properties ?? {}).sort()) tree[name] = fieldPathTree(node.properties?.[name]);
  if (node.items) tree['[]'] = fieldPathTree(node.items);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') tree['{}'] = fieldPathTree(node.additionalProperties);
  return tree;
}

/** Every path in the tree, e.g. ".spec.template.spec.containers[].name". */
export function fieldPaths(tree: FieldPathTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([name, child]) => {
    const path = name === '[]' || name === '{}' ? `${prefix}${name}` : `${prefix}.${name}`;
    return [path, ...fieldPaths(child, path)];
  });
}
