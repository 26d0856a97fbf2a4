import type { StoredChange, StoredComment, StoredDiscussion, StoredRepo } from './types.js';

// Discussions as huggingface_hub reads them (hf_api get_repo_discussions,
// get_discussion_details, deserialize_event): every view carries `repo`.

export function commentEvent(c: StoredComment): Record<string, unknown> {
  const updatedAt = c.updatedAt ?? c.createdAt;
  const latest = { raw: c.content, html: escapeHtml(c.content), updatedAt, author: { name: c.author } };
  return {
    id: c.id, type: 'comment', createdAt: c.createdAt, author: { name: c.author },
    data: { edited: c.edited === true, hidden: c.hidden, latest, numEdits: c.edited ? 1 : 0, history: [latest], editors: [c.author] },
  };
}

export function changeEvent(c: StoredChange): Record<string, unknown> {
  return { id: c.id, type: c.type, createdAt: c.createdAt, author: { name: c.author }, data: c.data };
}

function escapeHtml(text: string): string {
  return `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`;
}

export function discussionSummary(repo: StoredRepo, d: StoredDiscussion): Record<string, unknown> {
  return {
    num: d.num, title: d.title, status: d.status, author: { name: d.author }, createdAt: d.createdAt,
    isPullRequest: d.isPullRequest, pinned: false, numComments: d.comments.length, topReactions: [],
    repo: { name: repo.repoId, type: repo.type },
  };
}

export function discussionDetails(repo: StoredRepo, d: StoredDiscussion): Record<string, unknown> {
  const events = [
    ...d.comments.map((c) => ({ at: c.createdAt, view: commentEvent(c) })),
    ...(d.changes ?? []).map((c) => ({ at: c.createdAt, view: changeEvent(c) })),
  ].sort((a, b) => a.at.localeCompare(b.at)).map((e) => e.view);
  const view: Record<string, unknown> = { ...discussionSummary(repo, d), id: d.id, events };
  if (d.isPullRequest) {
    view.changes = { base: d.baseRef ?? 'refs/heads/main', ...(d.mergeCommitId ? { mergeCommitId: d.mergeCommitId } : {}) };
    view.filesWithConflicts = [];
    view.diff = '';
  }
  return view;
}
