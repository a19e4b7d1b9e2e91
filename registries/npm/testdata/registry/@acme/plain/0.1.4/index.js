exports.plain = 1
