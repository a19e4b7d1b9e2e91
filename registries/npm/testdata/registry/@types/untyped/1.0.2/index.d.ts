declare function untyped(): void;
declare namespace untyped {
    /** Only in 1.0.2. */
    const only1_0_2: string;
}
export = untyped;
