export declare function saw(): void;
