// The HTML document around a report's body: one inline stylesheet and a policy that forbids every
// fetch, so a page provably works offline from file:// and carries no scripts.
import { escapeHtml } from './escape';
import { STYLES } from './styles';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function htmlDocument(pageTitle: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(pageTitle)}</title>`,
    `<style>${STYLES}</style>`,
    '</head>',
    `<body>${body}</body>`,
    '</html>',
    '',
  ].join('\n');
}
