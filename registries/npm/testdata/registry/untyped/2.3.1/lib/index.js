module.exports = function untyped() {}
