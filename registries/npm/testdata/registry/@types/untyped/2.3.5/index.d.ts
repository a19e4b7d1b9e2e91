/// <reference types="node" />

declare function untyped(options?: untyped.Options): untyped.Handle;

declare namespace untyped {
    /** Options of {@link untyped}. */
    interface Options {
        /**
         * Largest payload, in bytes.
         * @default 1048576
         */
        maxPayload?: number | undefined;
        /** Called for each message. */
        onMessage?(data: string): void;
    }

    /** What untyped returns. */
    class Handle {
        /**
         * Sends data.
         * @param data the bytes
         * @param [cb] called once sent
         */
        send(data: string, cb?: (err?: Error) => void): void;
        send(data: Uint8Array): void;
    }
}

export = untyped;
