// 30 s per test: its HTTP/2 and Connect tests start a Nest app and move 200,000-row replies, which took
// over 5 s (jest's default) when every project's tests ran at once in CI. Behaviour, not timing, is tested.
module.exports = { ...require('../../jest.preset.js'), displayName: 'server-a', rootDir: __dirname, testTimeout: 30000 };
