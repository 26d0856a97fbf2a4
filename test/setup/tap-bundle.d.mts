// Types of tap-bundle.mjs for the TypeScript that imports it (prepare-venvs.ts).
export declare const TAP_BUNDLE: string;
export declare const TAP_ENTRY: string;
export declare function bundleTap(): Promise<void>;
