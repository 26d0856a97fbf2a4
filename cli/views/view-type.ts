// Every command that can answer in JSON picks its view once, from its flags,
// like Terraform's `views.NewPlan(viewType)`: no command asks `json ? … : …`
// again after that. Human views paint only on a terminal (see lib/io useColor).

export type ViewType = 'human' | 'json';

export function viewType(o: { json?: boolean }): ViewType {
  return o.json === true ? 'json' : 'human';
}
