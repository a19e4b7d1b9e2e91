export declare function createWidget(): void;
