module.exports = { ...require('../../jest.preset.js'), displayName: 'server-a', rootDir: __dirname };
