import { ODDS_FORMATS, type OddsFormat } from '../../shared/odds-format.js';
import type { OddsFormatItem } from './references.schemas.js';

/** What GET /v1/references/odds-format says of each format (docs/data.md#odds-formats). */
const DETAILS: Record<OddsFormat, Omit<OddsFormatItem, 'id' | 'key'>> = {
  decimal: {
    name: 'Decimal',
    value_type: 'number',
    description: 'The total returned per unit staked, stake included: 2.25 returns 225 for a stake of 100. Always above 1. The default.',
  },
  american: {
    name: 'American',
    value_type: 'integer',
    description: 'Signed: the win on a stake of 100 when positive (2.25 is 125), the stake that wins 100 when negative (1.80 is −125); 2.00 is 100.',
  },
  fractional: {
    name: 'Fractional',
    value_type: 'string',
    description: 'The win per unit staked, d − 1, as an exact reduced fraction "p/q": 2.25 is "5/4", 1.91 is "91/100", 2.00 is "1/1".',
  },
  implied_probability: {
    name: 'Implied probability',
    value_type: 'number',
    description: 'The chance the price implies, 1/d, a fraction from 0 to 1 to 4 decimals: 2.25 is 0.4444, 2.00 is 0.5.',
  },
  multiplier: {
    name: 'Multiplier',
    value_type: 'number',
    description: 'The payout multiplier, as DFS apps show it: the decimal price d, stake included: 2.25 is 2.25 (Odditt\'s name).',
  },
  percent: {
    name: 'Percent',
    value_type: 'number',
    description: 'The chance the price implies in percent, 100/d to 2 decimals, as prediction markets show it: 2.25 is 44.44, 2.00 is 50 (Odditt\'s name).',
  },
};

/** The formats in the order of ODDS_FORMATS, numbered from 1. */
export const ODDS_FORMAT_ITEMS: readonly OddsFormatItem[] = ODDS_FORMATS.map((key, i) => ({ id: i + 1, key, ...DETAILS[key] }));
