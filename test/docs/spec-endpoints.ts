/** Every endpoint of the contract's first version (docs/api.md), with its method: the document and the docs page must show each. */
export const SPEC_ENDPOINTS = [
  ['post', '/v1/auth/login'],
  ['post', '/v1/oauth/login'],
  ['post', '/v1/auth/refresh'],
  ['post', '/v1/oauth/refresh'],
  ['get', '/v1/account/config'],
  ['get', '/v1/references/sports'],
  ['get', '/v1/references/teams'],
  ['post', '/v1/trends/mixed-flows'],
  ['post', '/v1/trends/flows'],
] as const;
