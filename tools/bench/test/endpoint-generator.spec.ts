import * as fs from 'node:fs';
import * as path from 'node:path';
import { FsTree } from 'nx/src/generators/tree';

// The generator is plain JavaScript (see its header); required as Nx requires it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const endpointGenerator = require('../generators/endpoint/generator.js') as (tree: FsTree, options: { name: string; item?: string }) => Promise<() => void>;

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');

/** The real workspace, with the generator's writes kept in memory (nothing touches the disk). */
function workspaceTree(): FsTree {
  return new FsTree(WORKSPACE_ROOT, false);
}

describe('nx g ./tools/bench:endpoint', () => {
  it('creates the builder, both controllers and their tests, and registers them everywhere', async () => {
    const tree = workspaceTree();
    await endpointGenerator(tree, { name: 'order-books' });
    const changes = tree.listChanges().map((c) => `${c.type} ${c.path}`);
    expect(changes.sort()).toEqual(
      [
        'CREATE libs/payloads/src/order-books/order-books.payload.ts',
        'CREATE libs/payloads/test/order-books/order-books.payload.spec.ts',
        'CREATE apps/server-a/src/order-books.controller.ts',
        'CREATE apps/server-a/test/order-books.spec.ts',
        'CREATE apps/server-b/src/order-books.controller.ts',
        'CREATE apps/server-b/test/order-books.spec.ts',
        'UPDATE libs/payloads/src/catalog.ts',
        'UPDATE libs/payloads/src/index.ts',
        'UPDATE apps/server-a/src/app.module.ts',
        'UPDATE apps/server-b/src/app.module.ts',
        'UPDATE tools/bench/src/plan/payload-cases.ts',
      ].sort(),
    );
    expect(tree.read('libs/payloads/src/order-books/order-books.payload.ts', 'utf-8')).toContain("export const ORDER_BOOKS = definePayload(\n  'order-books',\n  message('OrderBook', {");
    expect(tree.read('libs/payloads/src/catalog.ts', 'utf-8')).toMatch(/import \{ ORDER_BOOKS \} from '\.\/order-books\/order-books\.payload';[\s\S]*ORDER_BOOKS,\n\]\);/);
    expect(tree.read('libs/payloads/src/index.ts', 'utf-8')).toContain("export { ORDER_BOOKS, type OrderBook } from './order-books/order-books.payload';\n");
    for (const app of ['server-a', 'server-b']) {
      const module = tree.read(`apps/${app}/src/app.module.ts`, 'utf-8') ?? '';
      expect(module).toContain("import { OrderBooksController } from './order-books.controller';");
      expect(module).toMatch(/controllers: \[[^\]]*, OrderBooksController\]/);
    }
    expect(tree.read('apps/server-a/src/order-books.controller.ts', 'utf-8')).toContain('@Controller(`server-a/${ORDER_BOOKS.names.route}`)');
    expect(tree.read('apps/server-b/src/order-books.controller.ts', 'utf-8')).toContain('@GrpcMethod(ORDER_BOOKS.names.service, ORDER_BOOKS.names.method)');
    expect(tree.read('tools/bench/src/plan/payload-cases.ts', 'utf-8')).toContain(
      "  { id: 'order-books-1×100', aliases: ['order-books-1x100'], payload: 'order-books', rows: 1, requests: 100 },\n]);",
    );
  });

  it('takes the item message name when given', async () => {
    const tree = workspaceTree();
    await endpointGenerator(tree, { name: 'people', item: 'Person' });
    expect(tree.read('libs/payloads/src/people/people.payload.ts', 'utf-8')).toContain("message('Person', {");
  });

  it('refuses a name that is not kebab-case, and one already generated', async () => {
    await expect(endpointGenerator(workspaceTree(), { name: 'Order_Books' })).rejects.toThrow('kebab-case');
    const existing = fs.readdirSync(path.join(WORKSPACE_ROOT, 'libs/payloads/src')).find((f) => fs.existsSync(path.join(WORKSPACE_ROOT, 'libs/payloads/src', f, `${f}.payload.ts`)));
    expect(existing).toBeDefined();
    await expect(endpointGenerator(workspaceTree(), { name: existing! })).rejects.toThrow('already generated');
  });
});
