export { closingOf, EVENT_PERIOD, eventsDueAtStart, EVENTS_PER_BATCH_UNSERVED, eventsOfMarkets, eventsToGrade, gradeEvents, type GradingSummary, markGradingDue } from './grading.js';
export { resultsRoutes } from './results.routes.js';
export { createResultsService, type ResultsService } from './results.service.js';
export { computeFlows, type FlowWarning } from './computed-flows.js';
