// The User-Agent of every request the operator sends to the API server: its Kubernetes client's calls and the
// dashboard calls it routes through the API server's service proxy (--use-kubernetes-proxy). Where the operator
// shares credentials with other clients (the sandbox's admin token in tests), an audit log attributes its calls
// by this (the least-privilege RBAC check does).
export const operatorUserAgent = 'rayjob-operator';
