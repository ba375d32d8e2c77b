import { DEEP_LINK_APPS, templateProblem } from '../../shared/deep-links.js';
import { ApiError, type ErrorDetail } from '../../platform/errors.js';
import { fromValidationErrors, validatorCompiler } from '../../platform/http/validation.js';
import { Dataset, DATASET_ARRAYS } from './import.schemas.js';

/**
 * The checks a dataset passes before anything is written: its schema, then rules across
 * fields and items (this file), then its references (import.references.ts). Each problem is
 * reported as {field: 'teams[3].league_id', rule}; the first one also becomes the message.
 */

/** Enough details to fix a file in a few rounds, not a million-line error body. */
const MAX_DETAILS = 100;

export class Problems {
  readonly details: ErrorDetail[] = [];
  private firstMessage: string | undefined;
  private total = 0;

  add(field: string, rule: string, message: string): void {
    this.total += 1;
    this.firstMessage ??= `${field} ${message}`;
    if (this.details.length < MAX_DETAILS) this.details.push({ field, rule });
  }

  /** Throws 422 VALIDATION_ERROR naming every problem found (nothing has been written). */
  throwIfAny(): void {
    if (this.total === 0) return;
    const more = this.total > 1 ? ` (and ${this.total - 1} more problem${this.total > 2 ? 's' : ''})` : '';
    throw new ApiError('VALIDATION_ERROR', `${this.firstMessage ?? 'the dataset is invalid'}${more}; nothing was imported`, {
      details: this.details,
    });
  }
}

const validateDataset = validatorCompiler({ schema: Dataset, method: 'POST', url: '/admin/v1/import', httpPart: 'body' }) as ((
  value: unknown,
) => boolean) & { errors?: Parameters<typeof fromValidationErrors>[0] | null };

/**
 * The dataset's schema (import.schemas.ts), with the same validator and error mapping as the HTTP routes:
 * a wrong JSON type is 400 BAD_REQUEST, any other broken rule 422 naming `array[index].field`.
 */
export function checkSchema(input: unknown): Dataset {
  if (validateDataset(input)) return input as Dataset;
  throw schemaError(validateDataset.errors ?? []);
}

/** The error for a dataset that breaks its schema, naming at most MAX_DETAILS fields. */
export function schemaError(errors: Parameters<typeof fromValidationErrors>[0]): ApiError {
  return fromValidationErrors(errors.slice(0, MAX_DETAILS), 'dataset');
}

/** Rules the schema cannot say: unique ids per array, hits ≤ total, two different teams, … */
export function checkWithinDataset(dataset: Dataset): void {
  const problems = new Problems();
  for (const array of DATASET_ARRAYS) {
    const seen = new Map<number, number>();
    (dataset[array] ?? []).forEach((item, index) => {
      const earlier = seen.get(item.id);
      if (earlier === undefined) seen.set(item.id, index);
      else problems.add(`${array}[${index}].id`, 'unique', `repeats id ${item.id} of ${array}[${earlier}]`);
    });
  }

  (dataset.betting_markets ?? []).forEach((market, i) => {
    if ((market.category_id ?? undefined) === undefined && market.category === undefined) {
      problems.add(`betting_markets[${i}].category_id`, 'required', 'or category is required: the category of the market');
    }
  });
  (dataset.events ?? []).forEach((event, i) => {
    if (Number.isNaN(Date.parse(event.start_time))) problems.add(`events[${i}].start_time`, 'format', 'is not a valid date-time');
    if (event.home_team_id === event.away_team_id) {
      problems.add(`events[${i}].away_team_id`, 'not', 'must differ from home_team_id');
    }
    // A score is both sides' or none: one side alone says nothing about the game.
    const [home, away] = [event.home_score ?? undefined, event.away_score ?? undefined];
    if ((home === undefined) !== (away === undefined)) {
      const missing = home === undefined ? 'home_score' : 'away_score';
      problems.add(`events[${i}].${missing}`, 'required', `is required when ${missing === 'home_score' ? 'away_score' : 'home_score'} is given`);
    }
  });
  (dataset.operators ?? []).forEach((operator, i) => {
    for (const { template } of DEEP_LINK_APPS) {
      const value = operator[template];
      const problem = typeof value === 'string' ? templateProblem(value) : undefined;
      if (problem !== undefined) problems.add(`operators[${i}].${template}`, 'deep_link_template', problem);
    }
  });
  for (const array of ['odds', 'price_updates'] as const) {
    (dataset[array] ?? []).forEach((item, i) => {
      if (typeof item.updated_at === 'string' && Number.isNaN(Date.parse(item.updated_at))) problems.add(`${array}[${i}].updated_at`, 'format', 'is not a valid date-time');
    });
  }
  (dataset.flows ?? []).forEach((flow, i) => {
    if (flow.hits > flow.total) problems.add(`flows[${i}].hits`, 'maximum', `must be at most total (${flow.total})`);
    const focusId = flow.focus_entity_id ?? undefined;
    if (flow.focus_entity_type !== 'event' && focusId === undefined) {
      problems.add(`flows[${i}].focus_entity_id`, 'required', `is required when focus_entity_type is ${flow.focus_entity_type}`);
    }
    if (flow.focus_entity_type === 'event' && focusId !== undefined && focusId !== flow.event_id) {
      problems.add(`flows[${i}].focus_entity_id`, 'const', 'must be the event_id when focus_entity_type is event');
    }
    (flow.leg_ids ?? []).forEach((legId, j) => {
      if (legId === flow.id) problems.add(`flows[${i}].leg_ids[${j}]`, 'not', 'a parlay cannot be its own leg');
    });
    if (flow.hit_history !== undefined) checkHitHistory(flow, `flows[${i}].hit_history`, problems);
  });
  problems.throwIfAny();
}

/**
 * A flow's hit history is the evidence behind its hit rate, so it must say the same: `total`
 * games with `hits` hits (docs/data.md#flow-graph-data). Only fact flows carry one, as only they
 * have graph data.
 */
function checkHitHistory(flow: NonNullable<Dataset['flows']>[number], field: string, problems: Problems): void {
  const games = flow.hit_history ?? [];
  if (flow.flow_type !== 'fact') problems.add(field, 'fact_only', `is for fact flows only, not ${flow.flow_type} flows`);
  if (games.length !== flow.total) problems.add(field, 'total', `holds ${games.length} games, not total (${flow.total})`);
  const hits = games.filter((game) => game.hit).length;
  if (hits !== flow.hits) problems.add(field, 'hits', `counts ${hits} hits, not hits (${flow.hits})`);
}
