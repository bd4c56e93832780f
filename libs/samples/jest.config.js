module.exports = { ...require('../../jest.preset.js'), displayName: 'samples', rootDir: __dirname };
