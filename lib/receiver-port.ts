// The receiver's port when neither a flag nor robot.yaml names one: 7860, the
// port huggingface_hub's WebhooksServer (gradio) listens on. Here in lib/
// because the schema's defaults, the receiver library, the agent and the CLI's
// help all need it, and the receiver runtime may import nothing but lib/.

export const DEFAULT_RECEIVER_PORT = 7860;
