export * from "./util.mjs";
/** Hits things. */
export declare function hammer(times?: number): void;
