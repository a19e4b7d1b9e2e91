/** Known shapes. */
export declare enum Shape {
  Square = "square",
  Circle = "circle",
}
export type Point = { x: number; y: number };
