// Types of run-folder.mjs for the TypeScript that imports it (prepare-venvs.ts).
export declare function runFolder(base: string): string;
export declare function ownRunFolder(): string | null;
export declare function removeStaleRunFolders(): string[];
