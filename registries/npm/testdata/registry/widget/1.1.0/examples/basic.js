const { createWidget } = require('widget');

createWidget({ size: 1 }).render();
