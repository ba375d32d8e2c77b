/** Results: grading odds from events' scores and statistics (after an import, and before a node serves), the graded odds by event and as a list, closing line value, and the trends computed from the grades. */
export { EVENT_PERIOD, eventsDueAtStart, EVENTS_PER_BATCH_UNSERVED, gradeEvents, type GradingSummary, markGradingDue } from './grading.js';
export { closingOf, eventsOfMarkets, eventsToGrade } from './grading.repository.js';
export { resultsRoutes } from './results.routes.js';
export { closingLineValues, createResultsService, type ResultsService } from './results.service.js';
export { computeFlows, type FlowWarning } from './computed-flows.js';
