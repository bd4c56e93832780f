module.exports = { ...require('../../jest.preset.js'), displayName: 'payloads', rootDir: __dirname };
