/** The plain value. */
export const plain: number;
