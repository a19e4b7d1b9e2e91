declare function untyped(): void;
declare namespace untyped {
    /** Only in 2.4.0. */
    const only2_4_0: string;
}
export = untyped;
