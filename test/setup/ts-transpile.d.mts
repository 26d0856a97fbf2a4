// Types of ts-transpile.mjs for the TypeScript that imports it (prepare-venvs.ts).
export declare const root: string;
export declare function transpileCached(path: string, source?: string): string;
export declare function warmTsCache(dir?: string): Promise<number>;
