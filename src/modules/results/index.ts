export { EVENT_PERIOD, eventsDueAtStart, EVENTS_PER_BATCH_UNSERVED, gradeEvents, type GradingSummary, markGradingDue } from './grading.js';
export { closingOf, eventsOfMarkets, eventsToGrade } from './grading.repository.js';
export { resultsRoutes } from './results.routes.js';
export { createResultsService, type ResultsService } from './results.service.js';
export { computeFlows, type FlowWarning } from './computed-flows.js';
