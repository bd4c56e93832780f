module.exports = { ...require('../../jest.preset.js'), displayName: 'server-b', rootDir: __dirname };
