// Package jsapi extracts the API of an npm package from its JavaScript sources (CommonJS and
// ECMAScript modules) and their JSDoc comments, for packages that ship no TypeScript declarations.
//
// It is a tolerant scanner, not a JavaScript engine or parser: a tokenizer that knows comments
// (JSDoc blocks kept), strings, template literals with nested ${…}, regular expression literals
// told from division by the previous token, and bracket depth; and pattern readers over the
// tokens for the ways packages export their API:
//
//   - CommonJS: module.exports = X, exports.x = …, module.exports.x = …,
//     exports = module.exports = X, Object.defineProperty(exports, "x", …), __exportStar(require(…)),
//     and UMD/IIFE wrappers whose exports object is assigned the same way (X.exports = Y);
//   - ECMAScript modules: export function/class/const/let/var, export default, export { a as b },
//     export … from, export * (as ns) from;
//   - members: class bodies (methods, getters, static members, fields), Foo.prototype.bar = …,
//     object literal properties and functions assigned onto an exported object (app.listen = …),
//     and properties defined on it with Object.defineProperty, Object.defineProperties or a
//     function of the file that passes its parameters to Object.defineProperty (express's
//     defineGetter(req, 'ip', function ip() {…})): a getter that computes its value is an
//     accessor property documented by the JSDoc above the definition. One function assigned
//     under several names of one object (req.get = req.header = function header(name)) is
//     documented under the first, whose Signature shows the chain; the others are symbols
//     whose Signature says which name they alias (req.header = req.get) and whose Doc says
//     "Alias of `express.request.get`.", so that an API list shows its text once.
//
// Relative require() and import specifiers are followed to other files of the package, resolved
// the way Node.js resolves files (exact, .js, .cjs, .mjs, /index.js), within the limits of Options.
// JSDoc (https://jsdoc.app/) gives Doc, Params (@param {T} [name=default] desc), Examples
// (@example) and Deprecated (@deprecated); symbols marked @private, @internal, @ignore or
// "@api private" and names starting with "_" are left out.
//
// It never panics on any input, and its work is bounded by the input size and the limits in
// Options. It imports docidx, registries/internal/clex, extracted, limit and memfs,
// npm/internal/tsdoc, and the standard library.
package jsapi
