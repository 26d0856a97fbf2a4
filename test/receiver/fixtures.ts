// The spec's payload examples (hub-webhooks.md §6): the three huggingface_hub
// test fixtures, verbatim, and the doc's PR example, which has // comments.

export const prOpened = `{"event":{"action":"create","scope":"discussion"},"repo":{"type":"model","name":"gpt2","id":"621ffdc036468d709f17434d","private":false,"url":{"web":"https://huggingface.co/gpt2","api":"https://huggingface.co/api/models/gpt2"},"owner":{"id":"628b753283ef59b5be89e937"}},"discussion":{"id":"6399f58518721fdd27fc9ca9","title":"Update co2 emissions","url":{"web":"https://huggingface.co/gpt2/discussions/19","api":"https://huggingface.co/api/models/gpt2/discussions/19"},"status":"open","author":{"id":"61d2f90c3c2083e1c08af22d"},"num":19,"isPullRequest":true,"changes":{"base":"refs/heads/main"}},"comment":{"id":"6399f58518721fdd27fc9caa","author":{"id":"61d2f90c3c2083e1c08af22d"},"content":"Add co2 emissions information to the model card","hidden":false,"url":{"web":"https://huggingface.co/gpt2/discussions/19#6399f58518721fdd27fc9caa"}},"webhook":{"id":"6390e855e30d9209411de93b","version":3}}`;

export const prClosed = `{"event":{"action":"update","scope":"discussion"},"repo":{"type":"space","name":"Wauplin/leaderboard","id":"656896965808298301ed7ccf","private":false,"url":{"web":"https://huggingface.co/spaces/Wauplin/leaderboard","api":"https://huggingface.co/api/spaces/Wauplin/leaderboard"},"owner":{"id":"6273f303f6d63a28483fde12"}},"discussion":{"id":"656a0dfcadba74cd5ef4545b","title":"Update space_ci/webhook.py","url":{"web":"https://huggingface.co/spaces/Wauplin/leaderboard/discussions/4","api":"https://huggingface.co/api/spaces/Wauplin/leaderboard/discussions/4"},"status":"closed","author":{"id":"6273f303f6d63a28483fde12"},"num":4,"isPullRequest":true,"changes":{"base":"refs/heads/main"}},"webhook":{"id":"656a05348c99518820a4dd54","version":3}}`;

export const contentUpdate = `{"event":{"action":"update","scope":"repo.content"},"repo":{"type":"space","name":"Wauplin/gradio-user-history","id":"651311c46de9c503f3f34a9e","private":false,"subdomain":"wauplin-gradio-user-history","url":{"web":"https://huggingface.co/spaces/Wauplin/gradio-user-history","api":"https://huggingface.co/api/spaces/Wauplin/gradio-user-history"},"headSha":"5e7f29fffcc579cb52539fddb14a1a4f85f39e44","owner":{"id":"6273f303f6d63a28483fde12"}},"webhook":{"id":"65a14fd933eca76f4639fc84","version":3},"updatedRefs":[{"ref":"refs/pr/5","oldSha":null,"newSha":"227c78346870a85e5de4fff8a585db68df975406"}]}`;

export const fixtures = { prOpened, prClosed, contentUpdate };

/** The doc snippet: not JSON (it has a // comment), which is expected. */
export const docExampleWithComment = `{
  "comment": {
    "id": "6399f58518721fdd27fc9caa",
    "hidden": false,
    // Note: when \`hidden\` is \`true\`, \`content\` will be undefined
    "url": { "web": "https://huggingface.co/openai-community/gpt2/discussions/19#6399f58518721fdd27fc9caa" }
  }
}`;

/** A fresh parsed copy of a fixture, to mutate. */
export function fixture(name: keyof typeof fixtures): Record<string, unknown> {
  return JSON.parse(fixtures[name]) as Record<string, unknown>;
}
