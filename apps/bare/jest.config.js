module.exports = { ...require('../../jest.preset.js'), displayName: 'bare', rootDir: __dirname };
