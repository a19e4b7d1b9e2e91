export declare function hush(): void;
