declare function untyped(): void;
declare namespace untyped {
    /** Only in 2.3.0. */
    const only2_3_0: string;
}
export = untyped;
