module.exports = { ...require('../../jest.preset.js'), displayName: 'transports', rootDir: __dirname };
