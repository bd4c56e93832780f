// The HTML report of one run: `renderReport(doc)` gives a self-contained page (inline CSS and SVG).
export { renderReport } from './report';
