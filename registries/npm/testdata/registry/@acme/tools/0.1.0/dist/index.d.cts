export declare function hammer(): void;
