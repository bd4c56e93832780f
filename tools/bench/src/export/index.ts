// export/: renderers only: results.md, results.csv and report.html (html/) of one run, from results/.
// Imports cli/ and model/.
export { renderCsv } from './csv';
export { describeWarmUp } from './brokers';
export { cpuProfileCsvExporter, exportedFiles, JSON_EXPORTER, RUN_EXPORTERS, writeExports, type Exporter } from './exporters';
export { renderCpuProfileMarkdown } from './cpu-profile';
export { renderCpuProfilesSection } from './html/flame-graphs';
export { renderBarChart } from './html/bar-chart';
export { escapeHtml } from './html/escape';
export { renderReport } from './html';
export { renderLogChart } from './html/log-chart';
export { htmlDocument } from './html/page';
export { INK, styleOf } from './html/palette';
export { renderPercentileChart } from './html/percentile-chart';
export { OUTCOME_COLOUR, renderTimelineChart, type TimelineColumn } from './html/timeline-chart';
export { renderValue } from './html/provenance';
export { el, line, rect } from './html/svg';
export { renderMarkdown, renderTable } from './markdown';
export { renderRepeatability, seriesFactor, seriesRange } from './repeatability';
export { renderRunEnd, type RunEnd, type RunEndPlace } from './terminal';
