exports.createWidget = function createWidget() { return { render() { return '' } } };
