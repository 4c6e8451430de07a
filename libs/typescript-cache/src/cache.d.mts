export declare const CACHE_DIR: string;
export declare function strippedPath(source: string | Buffer, dir?: string): string;
