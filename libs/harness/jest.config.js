module.exports = { ...require('../../jest.preset.js'), displayName: 'harness', rootDir: __dirname };
