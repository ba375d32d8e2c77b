import { type Static, Type } from 'typebox';
import { PageOf, pagingProperties } from '../../platform/pagination.js';
import { dayOrDateTimeRangeProperties } from '../../shared/date-range.js';
import { TIERS } from '../auth/index.js';
import { USAGE_GROUP_NAMES, USAGE_GROUPS } from '../policy/index.js';

export const TOP_PAGE_SIZE_MAX = 100;

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Limit = (description: string) => Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description });
const dateProperties = dayOrDateTimeRangeProperties('the usage reported');

export const UsageQuery = Type.Object(dateProperties, { additionalProperties: false });
export type UsageQuery = Static<typeof UsageQuery>;

export const TopClientsQuery = Type.Object({ ...dateProperties, ...pagingProperties(TOP_PAGE_SIZE_MAX) }, { additionalProperties: false });

const WindowState = (window: string) =>
  Type.Object(
    {
      used: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: `Requests counted in the current ${window}; null when the client has no limit at all (nothing is counted).`,
      }),
      remaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Requests left in it; null: no cap.' }),
      resets_at: Type.String({ format: 'date-time', description: `When the current ${window} ends (UTC).` }),
    },
    { additionalProperties: false, description: `The current ${window}: requests used and left, and when it resets.` },
  );

const ByGroup = Type.Object(Object.fromEntries(USAGE_GROUP_NAMES.map((group) => [group, Count(USAGE_GROUPS[group])])), {
  additionalProperties: false,
  description: "That day's requests by route group.",
});

const LimitsInForce = Type.Object(
  {
    per_minute: Limit('Requests per UTC minute (every /v1 call); null: no cap.'),
    per_day: Limit('Requests per UTC day (data calls; /v1/account/* is not counted); null: no cap.'),
  },
  { additionalProperties: false, description: "The limits in force: an operator's override, else the tier's." },
);

/** A client's usage: its limits, where it stands now, and its charged requests per day. */
export const Usage = Type.Object(
  {
    tier: Type.Enum(TIERS, { description: 'Account tier.' }),
    limits: LimitsInForce,
    current: Type.Object(
      { minute: WindowState('UTC minute'), day: WindowState('UTC day (data calls only)') },
      { additionalProperties: false, description: 'The windows now, counted by every node.' },
    ),
    days: Type.Array(
      Type.Object(
        {
          date: Type.String({ format: 'date', description: 'The UTC day.' }),
          requests: Count('Requests charged that day, every group: the sum of by_group.'),
          charged: Count(
            "Requests that counted against the daily quota that day: every group but account. Today's is current.day.used, " +
              "give or take what other nodes have not written yet or hold ahead unused.",
          ),
          by_group: ByGroup,
          webhook_deliveries: Count(
            "Webhook deliveries your endpoints acknowledged (2xx) that day, replays and retries included: counted beside the requests, in neither requests nor charged.",
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'Every day of the range, oldest first; days without requests show 0.' },
    ),
  },
  { title: 'Usage', additionalProperties: false },
);
export type Usage = Static<typeof Usage>;

export const HoursQuery = Type.Object(
  { date: Type.Optional(Type.String({ format: 'date', description: 'The UTC day (YYYY-MM-DD) whose hours are reported. Default: today.' })) },
  { additionalProperties: false },
);
export type HoursQuery = Static<typeof HoursQuery>;

/** A client's requests per hour of one UTC day, and the requests it was refused (429) that day. */
export const UsageHours = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'The UTC day.' }),
    limits: LimitsInForce,
    hours: Type.Array(
      Type.Object(
        {
          hour: Type.String({ format: 'date-time', description: 'The start of the UTC hour.' }),
          requests: Count('Requests charged that hour, every group: the sum of by_group.'),
          by_group: { ...ByGroup, description: "That hour's requests by route group." },
        },
        { additionalProperties: false },
      ),
      { description: 'The 24 hours of the day, oldest first; hours without requests show 0. Kept USAGE_HOURLY_RETENTION_DAYS.' },
    ),
    refusals: Type.Array(
      Type.Object(
        {
          minute: Type.String({ format: 'date-time', description: 'The start of the UTC minute.' }),
          window: Type.Enum(['minute', 'day'], { description: 'The window that was exhausted.' }),
          refusals: Count('Requests answered 429 in that minute because of that window.'),
        },
        { additionalProperties: false },
      ),
      { description: "The day's 429 answers by minute and window, oldest first. Kept USAGE_HOURLY_RETENTION_DAYS." },
    ),
  },
  { title: 'UsageHours', additionalProperties: false },
);
export type UsageHours = Static<typeof UsageHours>;

const TopClient = Type.Object(
  {
    client_id: Type.String({ format: 'uuid', description: 'Client identifier.' }),
    name: Type.Union([Type.String(), Type.Null()], { description: 'Its name; null if the account no longer exists.' }),
    tier: Type.Union([Type.String(), Type.Null()], { description: 'Its tier now; null if the account no longer exists.' }),
    requests: Count('Requests charged in the range.'),
  },
  { additionalProperties: false },
);
export const TopClientsPage = PageOf(TopClient, 'TopClientsPage');
export type TopClient = Static<typeof TopClient>;

export const ClientParams = Type.Object({ client_id: Type.String({ description: 'Client identifier (UUID).' }) });
