// Lets plain Node scripts (the proto generator, the endpoint generator) require this lib's TypeScript
// sources: each file is transpiled on load with the workspace's TypeScript, types erased, not checked
// (the lib's build type-checks them). Nx would need ts-node or swc for this; we install neither.
'use strict';
const fs = require('node:fs');
const ts = require('typescript');

if (!require.extensions['.ts']) {
  require.extensions['.ts'] = (module, filename) => {
    const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
      fileName: filename,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    module._compile(outputText, filename);
  };
}
