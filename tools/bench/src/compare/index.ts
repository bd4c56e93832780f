// compare/: two runs cell by cell (bench:compare) and the runs' index page that compares any two in the
// browser. Imports cli/ and model/.
export { compareKit } from './compare';
export { renderComparison } from './comparison';
export { renderIndex } from './index-page';
