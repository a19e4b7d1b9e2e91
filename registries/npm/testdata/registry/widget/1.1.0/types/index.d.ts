import { Shape } from './shapes';
export * from './shapes';

/** Options for {@link createWidget}. */
export interface WidgetOptions {
  /** Size in pixels. */
  size: number;
  shape?: Shape;
}

/**
 * A widget.
 * @example
 * new Widget({ size: 1 }).render()
 */
export declare class Widget {
  constructor(options: WidgetOptions);
  readonly size: number;
  private cache;
  /** Renders the widget to a string. */
  render(): string;
  resize(n: number): this;
  resize(w: number, h: number): this;
  static compose(...parts: Widget[]): Widget;
}

/** Creates a widget. */
export declare function createWidget(options?: WidgetOptions): Widget;

/** @deprecated Use createWidget. */
export declare function makeWidget(): Widget;

export declare const VERSION: string;
